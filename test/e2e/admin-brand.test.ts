import { PNG } from 'pngjs';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

/** A PNG of one colour, as an office's logo file might be. */
function pngOf(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let at = 0; at < png.data.length; at += 4) png.data.set([11, 110, 79, 255], at);
  return PNG.sync.write(png);
}

/** The element's computed background (run in the page; this file is type-checked without the DOM's types). */
type PageWindow = { getComputedStyle: (node: unknown) => { backgroundColor: string } };
const backgroundOf = (locator: Locator) =>
  locator.evaluate((node) => (globalThis as unknown as PageWindow).getComputedStyle(node).backgroundColor);

describe("the office's brand in the admin UI", { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  const brand = async () => (await t.api('GET', '/api/settings/brand')).body;

  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('checks the accent as it is typed, previews it, saves it; takes a logo, refuses an SVG with a script, removes it (800 px)', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const card = page.getByRole('region', { name: 'Brand: logo and colour' });
    const accent = card.getByLabel('Accent colour', { exact: true });
    await accent.waitFor({ timeout: UI_TIMEOUT_MS });
    const button = card.getByTestId('brand-preview-button');
    expect(await button.textContent()).toBe('Sign the document');
    expect(await backgroundOf(button)).toBe('rgb(31, 79, 209)');

    // Too pale for white text: said at once, not previewed, not sent.
    await accent.fill('#ffcc00');
    await card.getByText(/contrast of 1\.\d\d:1; WCAG AA needs at least 4\.5:1/).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    expect(await backgroundOf(button)).toBe('rgb(31, 79, 209)');

    await accent.fill('#0B6E4F');
    await expect.poll(() => backgroundOf(button), { timeout: UI_TIMEOUT_MS }).toBe('rgb(11, 110, 79)');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await brand()).accent_color, { timeout: UI_TIMEOUT_MS }).toBe('#0b6e4f');

    // A logo: the preview shows the PNG SignDesk made of it.
    await card.getByLabel('Logo', { exact: true }).setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: pngOf(300, 120),
    });
    const logo = card.getByRole('img', { name: 'The office’s logo as parties see it' });
    await logo.waitFor({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => logo.evaluate((node) => (node as unknown as { naturalWidth: number }).naturalWidth), {
        timeout: UI_TIMEOUT_MS,
      })
      .toBe(300);
    const saved = (await brand()).logo;
    expect(saved).toMatchObject({ width: 300, height: 120, uploaded_type: 'image/png' });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-brand');
    expect(await auditAccessibility(page), 'settings-brand').toEqual([]);

    // An SVG that carries a script: refused with the reason, the logo stays.
    await card.getByLabel('Logo', { exact: true }).setInputFiles({
      name: 'hostile.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><script>alert(1)</script></svg>',
      ),
    });
    // Said under the field, in the words of the server's refusal (the field's hint also names scripts).
    const refusal = page.locator('.field-error', { hasText: 'The SVG holds a script; a logo needs none.' });
    await refusal.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.getByLabel('Logo', { exact: true }).getAttribute('aria-describedby')).toContain(
      await refusal.getAttribute('id'),
    );
    expect((await brand()).logo).toEqual(saved);

    await card.getByRole('button', { name: 'Remove logo' }).click();
    await card.getByText('No logo: parties see the office’s name.').waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await brand()).logo).toBeNull();
    expect(problems).toEqual([]);
  });

  it('speaks Swedish, at 800 px', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await page.goto(`${t.url}/admin/settings`);
    const card = page.getByRole('region', { name: 'Varumärke: logotyp och färg' });
    await card.getByLabel('Accentfärg', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.getByTestId('brand-preview-button').textContent()).toBe('Skriv under dokumentet');
    await card.getByLabel('Logotyp', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByLabel('Accentfärg', { exact: true }).fill('#ffcc00');
    await card.getByText(/kräver minst 4,5:1/).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-brand-sv');
    expect(problems).toEqual([]);
  });
});
