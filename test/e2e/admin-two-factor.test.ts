import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/** A moment 10 s into a 30-second step: the test moves the server's time a step at a time. */
const STEP_START = 1_900_000_020_000;

/**
 * Two-factor sign-in in Chromium at 800 px: a user sets up an authenticator app from the QR
 * page and signs in with its code (a wrong and a reused code refused); the administrator
 * requires two factors of everyone, and a user without one is led through setting it up.
 */
describe('two-factor sign-in in the admin UI', { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  const codeNow = (secret: string) => generateSync({ secret, epoch: Math.floor(t.clock.now() / 1000) });

  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    t.clock.set(STEP_START);
    await t.api('PUT', '/api/settings/general', {
      body: { office_name: 'Berg & Partners', office_email: 'office@berg.test' },
    });
    await makeUser(t, 'tove');
    await makeUser(t, 'ulf');
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function passwordStep(page: Page, username: string, heading: string): Promise<void> {
    await page.goto(`${t.url}/admin/`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(`${username} password`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
  }

  /** Reads the key beside the QR code and types the app's code of it; returns the key. */
  async function turnOn(page: Page): Promise<string> {
    await page.getByRole('img', { name: 'QR code for the authenticator app' }).waitFor({ timeout: UI_TIMEOUT_MS });
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByLabel('Code from the app').fill(codeNow(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByTestId('recovery-codes').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    return secret;
  }

  it('sets up an app, signs in with its code, and leads a user through setting one up when required', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'tove', 'tove password');
    await page.getByRole('link', { name: 'Your sign-in' }).click();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const secret = await turnOn(page);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'two-factor-recovery-codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect.poll(() => page.getByText('Recovery codes left: 10').isVisible()).toBe(true);

    // Signed out and in again: the password, then the code; the code just used and a wrong one are refused.
    const usedCode = codeNow(secret);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await passwordStep(page, 'tove', 'Enter your code');
    for (const code of ['000000', usedCode]) {
      await page.getByLabel('Code', { exact: true }).fill(code);
      const [answer] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith('/api/session/second-factor')),
        page.getByRole('button', { name: 'Sign in', exact: true }).click(),
      ]);
      expect(answer.status()).toBe(401);
      await expect.poll(() => page.getByText('The code is wrong, or was used already.').isVisible()).toBe(true);
    }
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    t.clock.set(STEP_START + 30_000);
    await page.getByLabel('Code', { exact: true }).fill(codeNow(secret));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: UI_TIMEOUT_MS });

    // The administrator requires two factors of everyone in Settings.
    const admin = await openPage(browser);
    await admin.page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(admin.page, t.url, 'admin', 'correct horse');
    await gotoAdmin(admin.page, t.url, '/settings', 'Settings');
    await admin.page.getByLabel('Require two-factor sign-in of everyone').check();
    await expect.poll(async () => (await t.api('GET', '/api/settings/sign-in')).body.require_two_factors).toBe(true);

    // Ulf has no app: before any session, he sets one up, sees his recovery codes, and is in.
    const ulf = await openPage(browser);
    await ulf.page.setViewportSize({ width: 800, height: 900 });
    await passwordStep(ulf.page, 'ulf', 'Set up two-factor sign-in');
    expect((await t.api('GET', '/api/office_log')).body.at(-1).event).toBe('settings.changed');
    await turnOn(ulf.page);
    expect(await fitsWidth(ulf.page)).toBe(true);
    await screenshot(ulf.page, 'two-factor-forced-enrolment');
    await ulf.page.getByRole('button', { name: 'I have saved them' }).click();
    await ulf.page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/office_log')).body.at(-1)).toMatchObject({ event: 'second_factor.enrolled' });
    expect([...problems, ...admin.problems, ...ulf.problems]).toEqual([]);
  });
});
