import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeOfficeDetails, fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

describe('the admin UI in the browser', { timeout: 120_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    await t.api('POST', '/api/users', {
      body: {
        username: 'clerk',
        email: 'clerk@berg.test',
        password: 'clerk password',
        firstname: 'Karin',
        lastname: 'Ek',
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks an administrator made with the CLI for the office details after sign-in', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse', { isOfficeStepKept: true });
    await page.getByRole('heading', { name: 'About your office' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'office-details');
    await completeOfficeDetails(page);
    await page.getByText('Berg & Partners Advokatbyrå').first().waitFor({ timeout: UI_TIMEOUT_MS });
    expect(problems).toEqual([]);
  });

  it('creates a template, edits it, previews it and starts a contract from it', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/templates', 'Templates');
    await page.getByRole('button', { name: 'New template' }).first().click();
    await page.getByRole('dialog').getByLabel('Name').fill('Consulting agreement');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Consulting agreement', level: 1 }).waitFor({ timeout: 30_000 });
    await page
      .getByLabel('Content')
      .fill('# Consulting agreement\n\nThe **consultant** delivers:\n\n- Analysis\n- A written report\n');
    await page.getByLabel('Footer', { exact: true }).fill('Berg & Partners · Storgatan 1 · Stockholm');
    await page.getByLabel('Published: offered when a contract is created').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved at' }).count()).toBe(1);
    const saved = await t.api('GET', '/api/contract_templates?per_page=1');
    expect(saved.body[0]).toMatchObject({
      name: 'Consulting agreement',
      is_published: true,
      footer: 'Berg & Partners · Storgatan 1 · Stockholm',
    });
    expect(saved.body[0].content).toContain('- A written report');
    // One clock: the time shown is the server's, in the office's zone, 24 h.
    expect(await page.getByRole('status').filter({ hasText: 'Saved at' }).textContent()).toContain(
      saved.body[0].updated_time.slice(11, 19),
    );
    await expect.poll(() => page.locator('canvas.pdf-page').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'template-editor');
    expect(await auditAccessibility(page), 'template-editor').toEqual([]);

    await page.getByRole('button', { name: 'New contract from template' }).click();
    await page.getByRole('heading', { name: 'Parties', exact: true }).waitFor({ timeout: 30_000 });
    await page
      .getByRole('form', { name: 'Details' })
      .getByLabel('Name', { exact: true })
      .fill('Consulting with Nordin AB');
    await page.getByRole('form', { name: 'Details' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Consulting with Nordin AB', level: 1 }).waitFor({ timeout: 30_000 });
    const addParty = page.getByRole('form', { name: 'Add a party' });
    await addParty.getByLabel('Name').fill('Eva Nordin');
    await addParty.getByLabel('E-mail').fill('eva@nordin.test');
    await addParty.getByRole('button', { name: 'Add party' }).click();
    await page.getByRole('cell', { name: 'Eva Nordin' }).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.locator('canvas.pdf-page').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'contract');
    expect(await auditAccessibility(page), 'contract').toEqual([]);
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByRole('button', { name: 'Send reminder' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('form', { name: 'Add a party' }).count()).toBe(0);
    const listed = await t.api('GET', '/api/contracts?status=sent');
    expect(listed.body.map((row: any) => row.name)).toContain('Consulting with Nordin AB');
    await gotoAdmin(page, t.url, '/contracts', 'Contracts');
    await page.getByRole('link', { name: 'Consulting with Nordin AB' }).waitFor({ timeout: 30_000 });
    await page
      .getByRole('navigation', { name: 'Contracts by status' })
      .getByRole('link', { name: /^Signed/ })
      .click();
    await page.getByText('No contract matches').waitFor({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Contracts by status' }).getByRole('link', { name: /^Sent/ }).click();
    await page.getByRole('link', { name: 'Consulting with Nordin AB' }).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
  });

  it('creates an API token whose key, shown once, works through the API, then limits and revokes it', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/tokens', 'API tokens');
    await page.getByRole('button', { name: 'Create token' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('CRM integration');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByTestId('api-key').waitFor({ timeout: 30_000 });
    const key = (await page.getByTestId('api-key').textContent())?.trim() ?? '';
    expect(key).toMatch(/^sdk_[A-Za-z0-9_-]+:[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'token-created');
    expect(await auditAccessibility(page), 'token-created').toEqual([]);

    const call = () =>
      fetch(`${t.url}/api/users`, { headers: { authorization: `token ${key}`, 'accept-api-version': '1' } });
    const first = await call();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('30');

    await page.getByRole('button', { name: 'I have stored the key' }).click();
    expect(await page.getByText(key).count()).toBe(0);
    await page.getByRole('button', { name: 'Rate limit of CRM integration' }).click();
    await page.getByRole('dialog').getByLabel('Rate limit').fill('5');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: '5 / min' }).waitFor({ timeout: 30_000 });
    expect((await call()).headers.get('x-ratelimit-limit')).toBe('5');
    await screenshot(page, 'tokens');

    // The UI's own confirmation, not the browser's: it takes focus and gives it back.
    await page.getByRole('button', { name: 'Revoke CRM integration' }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await confirm.waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string | null>('document.activeElement?.textContent ?? null')).toBe('Cancel');
    expect(await auditAccessibility(page), 'confirm dialog').toEqual([]);
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByText(/^Revoked /)
      .first()
      .waitFor({ timeout: 30_000 });
    expect((await call()).status).toBe(401);
    expect(problems).toEqual([]);
  });

  it('adds a user, and keeps a customer user out of users, tokens, webhooks and settings', async () => {
    const admin = await openPage(browser);
    await signInThroughPage(admin.page, t.url, 'admin', 'correct horse');
    await gotoAdmin(admin.page, t.url, '/users', 'Users');
    await admin.page.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByLabel('First name').fill('Olle');
    await dialog.getByLabel('Last name').fill('Sund');
    await dialog.getByLabel('Username').fill('olle');
    await dialog.getByLabel('E-mail').fill('olle@berg.test');
    await dialog.getByLabel('Password').fill('olle password');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await admin.page.getByRole('cell', { name: 'olle', exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(admin.page, 'users');
    expect(await auditAccessibility(admin.page), 'users').toEqual([]);

    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'olle', 'olle password');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Contracts', 'Templates']);
    for (const route of ['/users', '/tokens', '/webhooks', '/settings']) {
      await page.goto(`${t.url}/admin${route}`);
      await page.getByRole('heading', { name: 'For administrators only' }).waitFor({ timeout: 30_000 });
    }
    await screenshot(page, 'customer-forbidden');
    const statuses = await page.evaluate(async () => {
      const get = (path: string) =>
        fetch(path, { headers: { 'Accept-Api-Version': '1' } }).then((response) => response.status);
      return [
        await get('/api/users'),
        await get('/api/partner/tokens'),
        await get('/api/settings/general'),
        await get('/api/contract_templates'),
      ];
    });
    expect(statuses).toEqual([403, 403, 403, 200]);
    expect(admin.problems).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('refuses a write without the CSRF header with 403', async () => {
    const { page } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    const status = await page.evaluate(() =>
      fetch('/api/contract_templates', {
        method: 'POST',
        headers: { 'Accept-Api-Version': '1', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'forged' }),
      }).then((response) => response.status),
    );
    expect(status).toBe(403);
    const names = (await t.api('GET', '/api/contract_templates?per_page=100')).body.map((row: any) => row.name);
    expect(names).not.toContain('forged');
  });

  it('sends an expired session back to sign-in', async () => {
    const { page } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/templates', 'Templates');
    await rawSql(t.server.ctx.db).run('UPDATE admin_sessions SET last_seen_at = last_seen_at - ?', 9 * 60 * 60 * 1000);
    // The page's next request finds the session ended: the one the link to Users makes, or a
    // refresh of the templates that beats it (then the link is gone already and nothing is clicked).
    await page.evaluate(`document.querySelector('nav a[href="/admin/users"]')?.click()`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 30_000 });
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'session-expired');
  });

  it('signs the desktop shell in through a one-time link', async () => {
    const { page } = await openPage(browser);
    await page.goto(t.server.createAdminLoginUrl());
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    // The client redirects after the page loads: wait for the address it lands on.
    await page.waitForURL((url) => url.pathname === '/admin/contracts', { timeout: 30_000 });
  });

  it('saves general settings and downloads a backup', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/settings', 'Settings');
    await page.getByLabel('Time zone').waitFor({ timeout: 30_000 });
    await page.getByLabel('Public base URL').fill('not a url');
    await page.getByRole('button', { name: 'Save' }).first().click();
    // Said once, beside the field, in the form's words: no API field names in the banner.
    await page.getByRole('alert').filter({ hasText: 'Check the fields marked below.' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('.field-error').count()).toBe(1);
    expect(await page.getByText(/public_base_url/).count()).toBe(0);
    await page.getByLabel('Public base URL').fill('https://sign.berg.test');
    await page.getByLabel('Time zone').selectOption('Europe/Helsinki');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Saved.').waitFor({ timeout: 30_000 });
    const settings = (await t.api('GET', '/api/settings/general')).body;
    expect(settings).toMatchObject({
      public_base_url: 'https://sign.berg.test',
      effective_time_zone: 'Europe/Helsinki',
    });
    await page.getByLabel('Passphrase for this backup').fill('en lång lösenfras');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download backup' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^signdesk-\d{8}-\d{6}\.sdbackup$/);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 8).toString('latin1')).toBe('SDBACKUP');
    await screenshot(page, 'settings');
    await t.api('PUT', '/api/settings/general', { body: { public_base_url: null, time_zone: null } });
    expect(problems).toEqual([]);
  });

  it('speaks Swedish when asked, and remembers it', async () => {
    const { page } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    const nav = page.getByRole('navigation', { name: 'Huvudmeny' });
    await nav.getByRole('link', { name: 'Avtal' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await page
      .getByRole('navigation', { name: 'Huvudmeny' })
      .getByRole('link', { name: 'Mallar' })
      .waitFor({ timeout: 30_000 });
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('sv');
    await gotoAdmin(page, t.url, '/tokens', 'API-nycklar');
    await screenshot(page, 'tokens-sv');
  });

  // Fourteen pages, each drawn, screenshot and audited: a long story on a busy machine.
  it('shows every page at desktop size and at 200 % zoom, keyboard first', async () => {
    const pages: [string, string, string][] = [
      ['/contracts', 'Contracts', 'contracts'],
      ['/templates', 'Templates', 'templates'],
      ['/users', 'Users', 'users-list'],
      ['/tokens', 'API tokens', 'tokens-list'],
      ['/webhooks', 'Webhooks', 'webhooks'],
      ['/outbox', 'Outbox', 'outbox'],
      ['/settings', 'Settings', 'settings-full'],
    ];
    for (const zoom200 of [false, true]) {
      const { page, problems } = await openPage(browser, { zoom200 });
      await signInThroughPage(page, t.url, 'admin', 'correct horse');
      for (const [route, heading, name] of pages) {
        await gotoAdmin(page, t.url, route, heading);
        await page.waitForLoadState('networkidle');
        await screenshot(page, zoom200 ? `${name}-zoom200` : name);
        expect(await fitsWidth(page), `${route} fits the width at ${zoom200 ? '200 %' : '100 %'}`).toBe(true);
        expect(await auditAccessibility(page), `${route} at ${zoom200 ? '200 %' : '100 %'}`).toEqual([]);
      }
      // Keyboard: the first Tab reaches the skip link, which moves focus to the content.
      await page.keyboard.press('Tab');
      expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Skip to content');
      expect(problems).toEqual([]);
    }
  }, 300_000);
});
