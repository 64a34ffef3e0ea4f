import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type SignDeskServer } from '../../server/index';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { makeTempDir, testConfig } from '../helpers/server';

describe('first run in the browser', { timeout: 120_000 }, () => {
  let browser: Browser;
  let server: SignDeskServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await createServer(testConfig(makeTempDir()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sets up the office and its first administrator, signs out and in again', async () => {
    const { page, problems, context } = await openPage(browser);
    const response = await page.goto(`${server.url}/admin`);
    expect(response?.status()).toBe(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');

    await page.getByRole('heading', { name: 'Welcome to SignDesk' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'setup');
    expect(await auditAccessibility(page)).toEqual([]);
    await page.getByRole('button', { name: 'Set up SignDesk' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Check the fields marked below.');
    expect(await page.getByText(/office_name|username:/).count()).toBe(0);
    await page.getByLabel('Office name').fill('Lindqvist Juridik AB');
    await page.getByLabel('Office e-mail').fill('office@lindqvist.test');
    await page.getByLabel('First name').fill('Anna');
    await page.getByLabel('Last name').fill('Lindqvist');
    await page.getByLabel('Username').fill('anna');
    await page.getByLabel('E-mail', { exact: true }).fill('anna@lindqvist.test');
    await page.getByLabel('Password', { exact: true }).fill('a long secret');
    await page.getByLabel('Repeat the password').fill('a long secret');
    await page.getByRole('button', { name: 'Set up SignDesk' }).click();

    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await page.getByText('Lindqvist Juridik AB').first().waitFor({ timeout: UI_TIMEOUT_MS });
    const cookies = await context.cookies();
    const session = cookies.find((cookie) => cookie.name === 'signdesk_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    await page.getByText('You are signed out.').waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'sign-in');
    expect(await auditAccessibility(page)).toEqual([]);
    // The audit can fail: an input without a label is caught.
    await page.evaluate(
      "document.querySelector('form').append(Object.assign(document.createElement('input'), { id: 'unlabelled' }))",
    );
    expect((await auditAccessibility(page)).map((violation) => violation.id)).toContain('label');
    await page.evaluate("document.getElementById('unlabelled').remove()");

    await page.getByLabel('Username').fill('anna');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByLabel('Password').press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The username or password is wrong');
    await page.getByLabel('Password').fill('a long secret');
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
  });
});
