import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { signedContract, waitForTimestampStatus } from '../helpers/evidence';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';
import { rawSql } from '../../server/db/raw-sql';

describe('evidence in the admin UI', () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  let browser: Browser;
  beforeAll(async () => {
    tsa = await startTsaServer();
    // No TSA_URL: the admin sets the authority in the settings page.
    env = await startSigningEnv({ tsaRetryScheduleS: [0.3] });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
    await tsa?.close();
  });

  it('sets and tests the timestamp authority, shows "timestamp pending" loudly, the chain check, and downloads the evidence package', async () => {
    const { t } = env;
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const panel = page.getByRole('region', { name: 'Trusted timestamps' });
    await panel.getByText('No timestamp authority is set').waitFor();
    await panel.getByLabel('Timestamp authority URL').fill(tsa.url);
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Saved').waitFor();
    expect((await t.api('GET', '/api/settings/timestamps')).body).toMatchObject({
      tsa_url: tsa.url,
      source: 'settings',
    });
    await panel.getByRole('button', { name: 'Test the authority' }).click();
    await panel.getByText(/The authority answered: O=Test Trust Services, CN=Test Timestamp Authority/).waitFor();
    expect(await auditAccessibility(page), 'settings with a timestamp authority').toEqual([]);
    await screenshot(page, 'settings-timestamps');

    // The authority is down when the contract is sealed: signed, but its timestamp pending.
    tsa.down();
    const contract = await signedContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    expect((await t.api('GET', contract.self)).body.timestamp_status).toBe('pending');
    await gotoAdmin(page, t.url, '/contracts', 'Contracts');
    await page.getByText('Timestamp pending').first().waitFor();
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.getByRole('alert').filter({ hasText: 'Timestamp pending' }).waitFor();
    await page.locator('[data-testid="chain-state"][data-intact="true"]').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'contract with timestamp pending').toEqual([]);
    await screenshot(page, 'contract-timestamp-pending');

    tsa.up();
    await waitForTimestampStatus(t, contract.self, 'document');
    await page.locator('[data-testid="timestamp-state"][data-status="document"]').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('alert').filter({ hasText: 'Timestamp pending' }).count()).toBe(0);
    // Then validation data and an archive timestamp (PAdES B-LTA).
    await page.locator('[data-testid="ltv-state"][data-status="done"]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="ltv-state"]').textContent()).toMatch(
      /^PAdES B-LTA: .*archive timestamp \d{4}-/,
    );

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download evidence package' }).click();
    const file = await (await downloading).path();
    const zip = fs.readFileSync(file);
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    expect(zip.toString('latin1')).toContain(`contract-${contract.id}-evidence/README.txt`);
    await screenshot(page, 'contract-evidence');

    // The same page in Swedish, at 800 px.
    await page.setViewportSize({ width: 800, height: 900 });
    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await page.reload();
    await page.getByRole('heading', { name: 'Bevisning' }).waitFor();
    await page.getByText(/Intakt: \d+ poster/).waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'contract-evidence-sv');

    // Settings, in Swedish at 800 px: the archive timestamps renewed on demand, with their progress.
    await gotoAdmin(page, t.url, '/settings', 'Inställningar');
    const archive = page.getByRole('region', { name: 'Arkivtidsstämplar' });
    await archive.getByRole('button', { name: 'Förnya alla arkivtidsstämplar nu' }).click();
    await archive
      .getByText(/Senaste förnyelse \(av en administratör\), påbörjad .*: (\d+) av \1 förnyade\./)
      .waitFor({ timeout: 30_000 });
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'settings, archive renewal').toEqual([]);
    await screenshot(page, 'settings-archive-renewal-sv');
    expect(problems).toEqual([]);
  }, 180_000);

  it('warns on the contract page when the log was changed behind its back', async () => {
    const { t } = env;
    expect((await t.api('PUT', '/api/settings/timestamps', { body: { tsa_url: tsa.url } })).status).toBe(200);
    const contract = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await rawSql(t.server.ctx.db).run(
      "UPDATE activity_log SET user_agent = 'forged' WHERE contract_id = ? AND event = 'party.opened'",
      contract.id,
    );
    const { page } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.locator('[data-testid="chain-state"][data-intact="false"]').waitFor();
    await page.getByText('Not intact: a past entry was changed, removed or inserted').waitFor();
    await screenshot(page, 'contract-chain-broken');
  }, 180_000);
});
