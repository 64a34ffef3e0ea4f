import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/** The office's own certificate as a PKCS#12 file, made with openssl. */
function makePkcs12(dir: string, passphrase: string): string {
  const run = (args: string[]) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(result.stderr);
  };
  run([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    '/CN=Berg och Partners Advokatbyra/O=Berg och Partners',
    '-days',
    '365',
    '-keyout',
    'key.pem',
    '-out',
    'cert.pem',
  ]);
  run([
    'pkcs12',
    '-export',
    '-inkey',
    'key.pem',
    '-in',
    'cert.pem',
    '-passout',
    `pass:${passphrase}`,
    '-out',
    'office.p12',
  ]);
  return path.join(dir, 'office.p12');
}

describe('the signing certificate in the admin UI', { timeout: 120_000 }, () => {
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

  it("shows the appliance's certificate and imports the office's own PKCS#12", async () => {
    const file = makePkcs12(makeTempDir('signdesk-p12-'), 'p12 secret');
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const panel = page.getByRole('region', { name: 'Signing certificate' });
    await panel.getByText('Self-signed by this appliance').waitFor({ timeout: 30_000 });

    await panel.getByLabel('Certificate file (.p12, .pfx)').setInputFiles(file);
    await panel.getByLabel('Passphrase').fill('wrong passphrase');
    await panel.getByRole('button', { name: 'Import certificate' }).click();
    await panel.getByRole('alert').waitFor({ timeout: 30_000 });
    expect((await t.api('GET', '/api/settings/signing_certificate')).body.is_self_signed).toBe(true);

    await panel.getByLabel('Passphrase').fill('p12 secret');
    await panel.getByRole('button', { name: 'Import certificate' }).click();
    await panel
      .getByText(/CN=Berg och Partners Advokatbyra/)
      .first()
      .waitFor({ timeout: 30_000 });
    const now = (await t.api('GET', '/api/settings/signing_certificate')).body;
    expect(now.subject).toContain('Berg och Partners Advokatbyra');
    expect(now.source).toBe('imported');
    await panel.getByText("Imported: the office's own certificate").waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'settings-certificate');
    expect(await auditAccessibility(page), 'settings-certificate').toEqual([]);
    expect(fs.existsSync(file)).toBe(true);
    expect(problems).toEqual([]);
  });
});
