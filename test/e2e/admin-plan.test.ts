import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { cli, startTestServer, type TestServer } from '../helpers/server';

const DAY_MS = 86_400_000;

/** An office near its plan's limits hears of it on every page, with whom to ask, and sees and changes its plan in the settings. */
describe("the office's plan in the admin UI", { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  let partner: string;
  let endDate: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    partner = (
      await cli(t.dataDir, ['token', 'create', '--name', 'msp', '--kind', 'partner', '--rate-limit', '100000'])
    ).out.at(-1) as string;
    // Four active users of five seats: 80 %.
    for (const name of ['anna', 'bo', 'cia']) {
      const made = await t.api('POST', '/api/users', { body: { username: name, email: `${name}@office.test` } });
      expect(made.status, made.text).toBe(201);
    }
    const today = t.server.ctx.timestamp(t.clock.now()).slice(0, 10);
    endDate = new Date(Date.parse(`${today}T12:00:00Z`) + 10 * DAY_MS).toISOString().slice(0, 10);
    const plan = await t.api('PUT', '/api/partner/subscription', {
      key: partner,
      body: { plan_name: 'Liten byrå', seats: 5, end_date: endDate },
    });
    expect(plan.status, plan.text).toBe(200);
    const customer = await t.api('PUT', '/api/partner/customer', {
      key: partner,
      body: { partner_name: 'Acme IT', partner_email: 'support@acme-it.example', partner_phone: '+46 8 123 456' },
    });
    expect(customer.status, customer.text).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('warns at 80 % of the seats and 10 days before the end, in Swedish at 800 px, naming the partner', async () => {
    const { page, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await gotoAdmin(page, t.url, '/contracts', 'Avtal');
    const banner = page.getByTestId('plan-banner');
    await banner.getByText('Kontorets abonnemang').waitFor({ timeout: UI_TIMEOUT_MS });
    const lines = await banner.getByRole('listitem').allTextContents();
    expect(lines).toEqual([
      '4 av abonnemangets 5 användare är aktiva.',
      `Abonnemanget upphör ${endDate}, om 10 dagar.`,
    ]);
    expect(await banner.textContent()).toContain(
      'Fråga Acme IT (support@acme-it.example, +46 8 123 456) om abonnemanget.',
    );
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'plan-banner-sv-800');
    expect(await auditAccessibility(page), 'the plan warning in Swedish at 800 px').toEqual([]);

    // Every admin page, not only the first.
    await gotoAdmin(page, t.url, '/users', 'Användare');
    await banner.getByText('4 av abonnemangets 5 användare är aktiva.').waitFor({ timeout: UI_TIMEOUT_MS });
    await banner.getByRole('link', { name: 'Abonnemanget under Inställningar' }).click();
    const card = page.getByTestId('plan-settings');
    await card.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.textContent()).toContain('Liten byrå');
    expect(await card.textContent()).toContain('4 av 5');
    expect(await card.textContent()).toContain('Acme IT (support@acme-it.example, +46 8 123 456)');
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'plan-settings-sv-800');
    expect(problems).toEqual([]);
  });

  it('lets an administrator change the plan in English; below 80 % nothing warns', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    await page.getByTestId('plan-settings').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change plan' });
    await dialog.getByLabel('Seats (users active at once)').fill('6');
    await dialog.getByLabel('Last day of the plan').fill('');
    await dialog.getByLabel('Contracts sent a month').fill('0');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
    const card = page.getByTestId('plan-settings');
    await card.getByText('4 of 6').waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/partner/subscription', { key: partner })).body).toMatchObject({
      seats: 6,
      contracts_per_month: 0,
      end_date: null,
    });
    const entry = (await t.api('GET', '/api/office_log')).body.at(-1);
    expect(entry).toMatchObject({ event: 'subscription.changed', actor: '/api/users/1' });
    expect(entry.details.via).toBe('admin UI');

    // 4 of 6 seats is 67 %, and a limit of 0 contracts warns of nothing until a send is refused.
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/partner/subscription/usage'));
    await gotoAdmin(page, t.url, '/contracts', 'Contracts');
    expect((await (await answered).json()).warnings).toEqual([]);
    // Two frames: React has drawn what the answer holds.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await page.getByTestId('plan-banner').count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
