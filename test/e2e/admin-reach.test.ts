import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';

describe('public access (reach) in the admin UI', { timeout: 180_000 }, () => {
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

  it('shows where links lead, checks the address and saves the public port, at 800 px', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const card = page.getByRole('region', { name: 'Public access' });
    await card
      .getByText(`Links now lead to ${t.url}, which only this PC can open.`, { exact: false })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('One address for the office and parties').waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('None: forwarding headers are ignored').waitFor({ timeout: UI_TIMEOUT_MS });

    // One listener for all: the check finds this SignDesk, and says in red that its office paths answer there.
    await card.getByRole('button', { name: 'Check the public address' }).click();
    const exposed = card.locator('.alert-danger[role="alert"]');
    await exposed
      .getByText('The check failed: the office is open to the internet at this address')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await exposed.textContent()).toContain(
      'Answered from outside: /admin/, /apidoc/v1/, /api/openapi.json, /api/users',
    );
    await screenshot(page, 'settings-reach-exposed-800');

    await card.getByLabel('Public port').fill('not a port');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('must be a port number from 1 to 65535').first().waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByLabel('Public port').fill('18443');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText('The saved port and address take effect when SignDesk next starts.')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    const reach = await t.api('GET', '/api/settings/reach');
    expect(reach.body).toMatchObject({ public_port: 18443, source: 'settings', is_restart_needed: true });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-reach-800');
    expect(await auditAccessibility(page), 'public access at 800 px').toEqual([]);

    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    const swedish = page.getByRole('region', { name: 'Publik åtkomst' });
    await swedish.getByText('som bara den här datorn kan öppna', { exact: false }).waitFor({ timeout: UI_TIMEOUT_MS });
    await swedish.getByRole('button', { name: 'Kontrollera den publika adressen' }).waitFor({ timeout: UI_TIMEOUT_MS });
    // Saving cleared the last check: checked again, the red notice reads in Swedish.
    await swedish.getByRole('button', { name: 'Kontrollera den publika adressen' }).click();
    await swedish
      .locator('.alert-danger')
      .getByText('Kontrollen misslyckades: kontoret är öppet mot internet på den här adressen')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-reach-sv-800');
    expect(problems).toEqual([]);
    await t.api('PUT', '/api/settings/reach', { body: { public_port: null } });
  });

  it('warns in the send dialog when a party would get a link only this PC can open', async () => {
    const contract = await makeContract(t, [{ name: 'Eva Nordin', email: 'eva@nordin.test' }]);
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.getByRole('button', { name: 'Send for signing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send for signing' });
    await dialog
      .getByText(`The signing links lead to ${t.url}, which only this PC can open: Eva Nordin could not open theirs.`, {
        exact: false,
      })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    // No invitations, no warning: the office hands the links over itself.
    await dialog.getByLabel('Send no invitations').check();
    await expect.poll(() => dialog.getByText('which only this PC can open', { exact: false }).count()).toBe(0);
    await dialog.getByLabel('Send no invitations').uncheck();
    await screenshot(page, 'send-link-only-this-pc');
    expect(await auditAccessibility(page), 'send dialog with the link warning').toEqual([]);

    // With a public address the warning is gone.
    await t.api('PUT', '/api/settings/general', { body: { public_base_url: 'https://sign.office.example' } });
    await page.reload();
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page
      .getByRole('dialog', { name: 'Send for signing' })
      .getByText('an e-mail to eva@nordin.test')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.getByText('which only this PC can open', { exact: false }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
