import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { partyStateOf } from '../helpers/contract-page';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';

describe('automatic backups and SMS without a gateway, in the admin UI', { timeout: 180_000 }, () => {
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

  it('sets up automatic backups at 800 px in Swedish and shows the last one', async () => {
    const folder = path.join(makeTempDir('signdesk-ui-backups-'), 'Säkerhetskopior');
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await gotoAdmin(page, t.url, '/settings', 'Inställningar');
    const card = page.getByRole('region', { name: 'Automatiska säkerhetskopior' });
    await card.getByText('Ingen automatisk säkerhetskopia har gjorts än.').waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByLabel('Mapp').fill(folder);
    await card.getByLabel('Lösenfras för automatiska säkerhetskopior').fill('kontorets långa lösenfras');
    await card.getByLabel('Gör säkerhetskopior automatiskt').check();
    await card.getByRole('button', { name: 'Spara' }).click();
    await card.getByText(/^Senaste säkerhetskopia \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/).waitFor({ timeout: 60_000 });
    const [file] = fs.readdirSync(folder);
    expect(file).toMatch(/^signdesk-backup-\d{8}-\d{6}\.sdbackup$/);
    expect(await card.getByTestId('backup-last-result').textContent()).toContain(path.join(folder, file as string));
    expect(
      await card.getByText('En lösenfras är sparad (förseglad, visas aldrig).', { exact: false }).isVisible(),
    ).toBe(true);
    // The restore drill's result beside the last backup.
    await card
      .getByTestId('backup-last-drill')
      .getByText(/^Återställningsprovet lyckades \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
      .waitFor({ timeout: 60_000 });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-backup-sv-800');
    expect(await auditAccessibility(page), 'settings in Swedish at 800 px').toEqual([]);

    // Restored from that backup, the office says it is a copy on every page until an admin confirms.
    const restored = await t.api('POST', '/api/settings/restore', {
      raw: { data: fs.readFileSync(path.join(folder, file as string)), contentType: 'application/vnd.signdesk.backup' },
      headers: { 'backup-passphrase': Buffer.from('kontorets långa lösenfras').toString('base64') },
    });
    expect(restored.status, restored.text).toBe(200);
    // Every session ended: signed in again (the sign-in page in English, as a new visitor sees it).
    await page.evaluate('localStorage.clear()');
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    const banner = page.getByTestId('restored-copy-banner');
    await banner.getByText('Det här kontoret är en återställd kopia').waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'restored-copy-banner-sv-800');
    await banner.getByRole('link').click();
    const confirm = card.getByRole('button', { name: 'Det här är nu kontoret: återuppta säkerhetskopiorna' });
    await confirm.click();
    await card.getByTestId('backup-restored-copy').waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/settings/backup_schedule')).body.restored_copy).toBeNull();
    expect(problems).toEqual([]);
  });

  it('warns before sending an SMS that would wait for a gateway, and shows the party waiting for it', async () => {
    const contract = await makeContract(t, [
      { name: 'Eva Nordin', mobile_phone: '+46701234567', delivery_method: 'SMS' },
    ]);
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send for signing' });
    await dialog
      .getByText('No SMS gateway is set up: the SMS to Eva Nordin waits in the outbox', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'send-without-sms-gateway');
    expect(await auditAccessibility(page), 'send dialog without a gateway').toEqual([]);
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => partyStateOf(page, 'Eva Nordin')).toBe('no-sms-gateway');
    await page.getByText('waiting for the SMS gateway').first().waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'party-waiting-for-sms-gateway');
    expect(problems).toEqual([]);
  });
});
