import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { freePort, startPebble, type Pebble } from '../helpers/pebble';
import { startTestServer, type TestServer } from '../helpers/server';

describe('the ACME certificate in the admin UI', { timeout: 180_000 }, () => {
  let browser: Browser;
  let pebble: Pebble;
  let t: TestServer;
  const status = async () => (await t.api('GET', '/api/settings/acme')).body;

  beforeAll(async () => {
    browser = await launchBrowser();
    const challengePort = await freePort();
    pebble = await startPebble({ challengePort });
    t = await startTestServer({
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: 'localhost',
        email: undefined,
        directoryUrl: pebble.directoryUrl,
        caFile: pebble.caFile,
        httpPort: challengePort,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await pebble?.stop();
  });

  it('shows the certificate, renews it on "Renew now", and shows a failure while the old one stays', async () => {
    await expect.poll(async () => (await status()).certificate, { timeout: 60_000, interval: 200 }).not.toBeNull();
    const first = (await status()).certificate;
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 800 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    const card = page.getByRole('region', { name: 'Certificate from Let’s Encrypt (ACME)' });
    await card.getByText(first.serial).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText(/Pebble Intermediate CA/).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText(first.renewal_time).first().waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);

    await card.getByRole('button', { name: 'Renew now' }).click();
    await expect
      .poll(async () => (await status()).certificate.serial, { timeout: 60_000, interval: 200 })
      .not.toBe(first.serial);
    const second = (await status()).certificate;
    await card.getByText(second.serial).waitFor({ timeout: UI_TIMEOUT_MS });

    await pebble.stop();
    await card.getByRole('button', { name: 'Renew now' }).click();
    await card
      .getByText('The certificate in force is still served.', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText(/the ACME CA cannot be reached/).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText(second.serial).waitFor({ timeout: UI_TIMEOUT_MS });

    // The domain and e-mail saved here (the desktop app's way): the e-mail counts at once, the domain at the next start.
    expect(await card.getByLabel('Domain').inputValue()).toBe('localhost');
    await card.getByLabel('Contact e-mail').fill('it@office.test');
    await card.getByLabel('Domain').fill('sign.office.test');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText('Restart SignDesk for the certificate of sign.office.test to be used.')
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await status()).toMatchObject({
      domain: 'localhost',
      configured_domain: 'sign.office.test',
      email: 'it@office.test',
      is_restart_needed: true,
    });
    await card.getByLabel('Domain').fill('not a domain!');
    await card.getByRole('button', { name: 'Save' }).click();
    await card
      .getByText(/must be a DNS name/)
      .first()
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await status()).configured_domain).toBe('sign.office.test');
    await screenshot(page, 'settings-acme');
    expect(await auditAccessibility(page), 'settings-acme').toEqual([]);
    expect(problems).toEqual([]);
  });

  it('speaks Swedish, at 800 px', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await page.goto(`${t.url}/admin/settings`);
    const card = page.getByRole('region', { name: 'Certifikat från Let’s Encrypt (ACME)' });
    await card.getByRole('button', { name: 'Förnya nu' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByText('Utfärdat av').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'settings-acme-sv');
    expect(problems).toEqual([]);
  });
});
