import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/** A root CA's certificate made with openssl, as DER (a .cer file as authorities publish them). */
function makeRootCer(dir: string): string {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  // prettier-ignore
  openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'root.key',
    '-out', 'root.pem', '-days', '30', '-subj', '/O=Nordic Time AB/CN=Nordic Time Root CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  openssl('x509', '-in', 'root.pem', '-outform', 'DER', '-out', 'root.cer');
  return path.join(dir, 'root.cer');
}

describe('the trusted certificate authorities in the admin UI', { timeout: 120_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it("adds an authority's root from its .cer file and removes it again, in English and in Swedish at 800 px", async () => {
    const file = makeRootCer(makeTempDir('signdesk-root-cer-'));
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const panel = page.getByRole('region', { name: 'Trusted certificate authorities' });
    await panel.getByText('None added.', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });

    // Something that is not a certificate is refused where it was typed.
    await panel.getByLabel('Or paste the certificate (PEM)').fill('not a certificate');
    await panel.getByRole('button', { name: 'Add certificate authority' }).click();
    await panel.getByText('is not a PEM certificate', { exact: false }).first().waitFor({ timeout: UI_TIMEOUT_MS });

    await panel.getByLabel('Certificate file (.pem, .crt, .cer)').setInputFiles(file);
    await expect
      .poll(() => panel.getByLabel('Or paste the certificate (PEM)').inputValue(), { timeout: UI_TIMEOUT_MS })
      .toContain('-----BEGIN CERTIFICATE-----');
    await panel.getByRole('button', { name: 'Add certificate authority' }).click();
    await panel.getByText('Added: O=Nordic Time AB, CN=Nordic Time Root CA.', { exact: false }).waitFor({
      timeout: UI_TIMEOUT_MS,
    });
    await panel.getByTestId('trusted-roots').getByText('O=Nordic Time AB, CN=Nordic Time Root CA').waitFor();
    const listed = (await t.api('GET', '/api/settings/timestamps/trusted_roots')).body.roots;
    expect(listed).toMatchObject([{ subject: 'O=Nordic Time AB, CN=Nordic Time Root CA', is_self_signed: true }]);
    await screenshot(page, 'settings-trusted-roots');
    expect(await auditAccessibility(page), 'settings-trusted-roots').toEqual([]);

    await page.setViewportSize({ width: 800, height: 900 });
    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await gotoAdmin(page, t.url, '/settings', 'Inställningar');
    const svPanel = page.getByRole('region', { name: 'Betrodda certifikatutfärdare' });
    await svPanel.getByText('Giltigt till', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-trusted-roots-sv-800');
    await svPanel.getByRole('button', { name: 'Ta bort O=Nordic Time AB, CN=Nordic Time Root CA' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Ta bort' }).click();
    await svPanel.getByText('Inga tillagda.', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/settings/timestamps/trusted_roots')).body).toEqual({ roots: [] });
    expect(problems).toEqual([]);
  });
});
