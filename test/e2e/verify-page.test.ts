import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { byteRangesOf, download, signedContract, waitForLtvStatus, waitForTimestampStatus } from '../helpers/evidence';
import { makePdf } from '../helpers/pdfs';
import { makeTempDir } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';
import { rawSql } from '../../server/db/raw-sql';

describe('the public verify page in Chromium', () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    tsa = await startTsaServer();
    env = await startSigningEnv({ tsaUrl: tsa.url });
    browser = await launchBrowser();
    dir = makeTempDir('signdesk-verify-');
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
    await tsa?.close();
  });

  /** Drops a file on the page through its file input, as choosing it does; returns the verdict shown. */
  async function check(page: Page, name: string, bytes: Buffer): Promise<string> {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    await page.locator('[data-testid="verify-file"]').setInputFiles(file);
    const verdict = page.locator('[data-verdict]');
    await verdict.waitFor({ timeout: 20_000 });
    await expect
      .poll(async () => (await page.locator('[data-verdict] .eyebrow').textContent()) ?? '', {
        timeout: 20_000,
        interval: 50,
      })
      .toBe(name);
    return (await verdict.getAttribute('data-verdict')) ?? '';
  }

  it('accepts a sealed PDF, rejects it with one changed byte, and knows nothing of an unrelated PDF; no sign-in, strict CSP', async () => {
    const { t } = env;
    const contract = await signedContract(t, [
      { name: 'Åsa Öberg', email: 'asa@example.test' },
      { name: 'Bo Ek', email: 'bo@example.test' },
    ]);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await waitForLtvStatus(t, contract.self, 'done');
    // The office's copy: the seal, then validation data and an archive timestamp (PAdES B-LTA).
    const issued = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const [sealRange] = byteRangesOf(issued) as [number[]];
    const sealed = issued.subarray(0, sealRange[2]! + sealRange[3]!);

    const { page, problems } = await openPage(browser, { locale: 'en-GB' });
    const response = await page.goto(`${t.url}/verify`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(response?.headers()['content-security-policy']).not.toContain('unsafe-inline');
    await page.getByRole('heading', { name: 'Verify a signed PDF' }).waitFor();

    expect(await check(page, 'lease-signed.pdf', sealed)).toBe('intact');
    await page.getByRole('heading', { name: 'Sealed by this office, and unchanged' }).waitFor();
    expect(await page.locator('[data-testid="verify-contract"]').textContent()).toBe('Hyresavtal Storgatan 1');
    const text = (await page.locator('[data-verdict]').textContent()) ?? '';
    expect(text).toContain('Åsa Öberg');
    expect(text).toContain('Bo Ek');
    expect(await page.locator('[data-testid="verify-timestamp"]').count()).toBe(1);
    expect(await page.locator('[data-testid="verify-timestamp"]').textContent()).toContain('Test Timestamp Authority');
    expect(await auditAccessibility(page), 'verify page, intact').toEqual([]);
    await screenshot(page, 'verify-intact');

    expect(await check(page, 'lease-archived.pdf', issued)).toBe('extended');
    await page
      .getByRole('heading', { name: 'The document sealed by this office, with validation data added' })
      .waitFor();
    expect(await page.locator('[data-testid="verify-addition"]').textContent()).toMatch(
      /^validation data and 1 trusted timestamp: signed by .*Test Timestamp Authority/,
    );
    expect(await auditAccessibility(page), 'verify page, extended').toEqual([]);
    await screenshot(page, 'verify-extended');

    // One byte changed inside what the seal covers (the original document): the seal breaks, and nothing of the contract is told.
    const changed = Buffer.from(sealed);
    const [[, signedUpTo]] = byteRangesOf(sealed) as [number[]];
    const at = Math.floor(signedUpTo! / 2);
    changed[at] = changed[at]! ^ 0x20;
    expect(await check(page, 'lease-changed.pdf', changed)).toBe('broken');
    await page.getByRole('heading', { name: 'Changed: the seal of this office no longer holds' }).waitFor();
    expect(await page.locator('[data-testid="verify-contract"]').count()).toBe(0);
    await screenshot(page, 'verify-broken');

    expect(await check(page, 'unrelated.pdf', Buffer.from(await makePdf({ pages: 1 })))).toBe('not-sealed-here');
    await page.getByRole('heading', { name: 'Not sealed by this office' }).waitFor();
    expect(await page.locator('[data-testid="verify-contract"]').count()).toBe(0);

    // Swedish, by the switch on the page.
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await page.getByRole('heading', { name: 'Kontrollera en signerad PDF' }).waitFor();
    expect(await check(page, 'avtal.pdf', sealed)).toBe('intact');
    await page.getByRole('heading', { name: 'Förseglad av detta kontor och oförändrad' }).waitFor();
    await screenshot(page, 'verify-intact-sv');
    expect(problems).toEqual([]);
  }, 180_000);

  it('checks over HTTP: bytes appended after the seal, not a PDF, too large, wrong type, rate limited; nothing stored', async () => {
    const { t } = env;
    const contract = await signedContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
    await waitForLtvStatus(t, contract.self, 'done');
    const issued = (await download(t, `${contract.self}/signed_pdf`)).bytes;
    const [sealRange] = byteRangesOf(issued) as [number[]];
    const sealed = issued.subarray(0, sealRange[2]! + sealRange[3]!);
    const post = (body: Uint8Array | string, type = 'application/pdf') =>
      fetch(`${t.url}/verify/check`, { method: 'POST', headers: { 'content-type': type }, body });
    const files = async () =>
      ((await rawSql(t.server.ctx.db).get('SELECT count(*) AS n FROM stored_files')) as { n: number }).n;
    const stored = await files();

    const appended = Buffer.concat([sealed, Buffer.from('\n% appended after sealing\n')]);
    const changedAfter = await (await post(appended)).json();
    expect(changedAfter).toMatchObject({
      verdict: 'changed',
      added_bytes: 26,
      // Not the very PDF sealed here: which contract it came from is not told.
      contract: null,
    });
    // A byte changed in the seal's own container (its /Contents padding, which it does not sign): the signed bytes hold, the file is not as issued.
    const [[, gapStart, gapEnd]] = byteRangesOf(sealed) as [number[]];
    const padded = Buffer.from(sealed);
    padded[gapEnd! - 3] = 0x31;
    expect(gapStart! < gapEnd! - 3).toBe(true);
    expect(await (await post(padded)).json()).toMatchObject({
      verdict: 'changed',
      added_bytes: 0,
      is_container_changed: true,
      seal: { is_valid: true },
    });
    expect(await (await post('plain text, not a PDF')).json()).toMatchObject({ verdict: 'not-pdf', contract: null });
    // Hostile signatures: a byte range past the end, garbage in /Contents, and DER nested a hundred thousand deep.
    const nested = `<${Buffer.concat([Buffer.alloc(100_000, 0x30), Buffer.alloc(100_000, 0x80)]).toString('hex')}>`;
    const pad = (n: number) => String(n).padStart(10, '0');
    const head = (b: number, c: number, d: number) =>
      `%PDF-1.7\n1 0 obj << /ByteRange [0 10 999999999 5] /Contents <00> >> endobj\n2 0 obj << /ByteRange [0 ${pad(b)} ${pad(c)} ${pad(d)}] /Contents `;
    const tail = ' >> endobj\n%%EOF\n';
    const b = head(0, 0, 0).length;
    const hostile = Buffer.from(head(b, b + nested.length, tail.length) + nested + tail, 'latin1');
    const judged = await post(hostile);
    expect(judged.status).toBe(200);
    expect(await judged.json()).toMatchObject({
      verdict: 'not-sealed-here',
      contract: null,
      seal: null,
      other_signatures: 0,
    });
    expect((await post(sealed)).status).toBe(200);
    expect((await post('x', 'text/plain')).status).toBe(415);
    expect((await post(Buffer.alloc(17 * 1024 * 1024, 0x20))).status).toBe(413);
    expect(await files()).toBe(stored);

    let limited: Response | undefined;
    for (let index = 0; index < 30 && !limited; index += 1) {
      const response = await post('%PDF-1.7\n');
      if (response.status === 429) limited = response;
    }
    expect(limited?.headers.get('retry-after')).toMatch(/^\d+$/);
  }, 180_000);
});
