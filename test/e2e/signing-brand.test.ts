import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { pageCountOf, run } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, signingClient, type SigningEnv } from '../helpers/signing';
import { phoneContext } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const ACCENT = [11, 110, 79] as const; // #0b6e4f
const LOGO = [180, 30, 40] as const; // the logo's own colour, another than the accent

/** A PNG of one colour, as an office's logo file might be. */
function pngOf(width: number, height: number, rgb: readonly number[]): Buffer {
  const png = new PNG({ width, height });
  for (let at = 0; at < png.data.length; at += 4) png.data.set([...rgb, 255], at);
  return PNG.sync.write(png);
}

/** How many pixels of a PDF page, drawn in colour by poppler, are (nearly) this colour. */
function pixelsOf(file: string, page: number, rgb: readonly number[]): number {
  const prefix = path.join(makeTempDir(), `page-${page}`);
  const drawn = run('pdftoppm', [
    '-r',
    '72',
    '-png',
    '-singlefile',
    '-f',
    String(page),
    '-l',
    String(page),
    file,
    prefix,
  ]);
  if (drawn.status !== 0) throw new Error(drawn.stderr);
  const image = PNG.sync.read(fs.readFileSync(`${prefix}.png`));
  let count = 0;
  for (let at = 0; at < image.data.length; at += 4)
    if (rgb.every((value, channel) => Math.abs(image.data[at + channel]! - value) <= 6)) count += 1;
  return count;
}

/**
 * The office's brand where parties see it (issue 41): its logo and accent on the signing page in
 * Chromium, and on the sealed PDF's audit page as poppler draws it.
 */
describe("the office's logo and accent before a party", () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('shows them on the signing page and on the audit page of the sealed PDF', async () => {
    const { t } = env;
    const accent = await t.api('PUT', '/api/settings/brand', { body: { accent_color: '#0b6e4f' } });
    expect(accent.status, accent.text).toBe(200);
    const logo = await t.api('PUT', '/api/settings/brand/logo', {
      raw: { data: pngOf(240, 80, LOGO), contentType: 'image/png' },
    });
    expect(logo.status, logo.text).toBe(200);

    const contract = await makeContract(t, [{ name: 'Nils Ek', email: 'nils@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const link = contract.parties[0]!.contract_url;
    const context = await phoneContext(browser, { locale: 'sv-SE' });
    const page = await context.newPage();
    await page.goto(link);
    const image = page.locator('img.brand-logo');
    await image.waitFor({ timeout: 30_000 });
    await expect.poll(() => page.evaluate<number>("document.querySelector('img.brand-logo').naturalWidth")).toBe(240);
    expect(await image.getAttribute('src')).toBe(new URL(logo.body.logo.url).pathname);
    // The page's main button wears the accent.
    const sign = page.locator('.action-bar').getByRole('button', { name: 'Skriv under dokumentet' });
    await sign.waitFor({ timeout: 30_000 });
    type Styles = { getComputedStyle(element: unknown): { backgroundColor: string } };
    const background = await sign.evaluate(
      (element) => (globalThis as unknown as Styles).getComputedStyle(element).backgroundColor,
    );
    expect(background).toBe(`rgb(${ACCENT.join(', ')})`);
    await context.close();

    const party = signingClient(link);
    expect((await party.state()).status).toBe(200);
    expect((await party.accept({}, 'Nils Ek')).status).toBe(200);
    const signedPdf = () =>
      fetch(`${t.url}${contract.self}/signed_pdf`, {
        headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
      });
    // The seal follows the signature; on a busy machine it takes a while.
    await expect.poll(async () => (await signedPdf()).status, { timeout: 90_000 }).toBe(200);
    const pdf = await signedPdf();
    const file = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    // The contract's two pages, then the audit page: the logo (its own colour) and the accent on it.
    const audit = 3;
    expect(pageCountOf(file)).toBeGreaterThanOrEqual(audit);
    expect(pixelsOf(file, audit, LOGO)).toBeGreaterThan(500);
    expect(pixelsOf(file, audit, ACCENT)).toBeGreaterThan(20);
    // The contract's own pages carry neither.
    expect(pixelsOf(file, 1, LOGO) + pixelsOf(file, 1, ACCENT)).toBe(0);
  }, 180_000);
});
