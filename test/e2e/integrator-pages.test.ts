import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditAccessibility, launchBrowser, openPage, SCREENSHOT_DIR } from '../helpers/browser';
import { UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';

// Browser work on a shared, loaded machine: generous limits, every wait on a real condition.
describe('the pages an integrator and a party meet', { timeout: 240_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    expect(
      (
        await t.api('PUT', '/api/settings/general', {
          body: { office_name: 'Berg & Partners', office_email: 'office@berg.test' },
        })
      ).status,
    ).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('links the admin UI to the API docs, which open in a new window', async () => {
    const { page, context, problems } = await openPage(browser);
    // Signed in through the API with the browser's own cookie jar; the sign-in page has its own tests.
    const signedIn = await context.request.post(`${t.url}/api/session`, {
      headers: { 'accept-api-version': '1' },
      data: { username: 'admin', password: 'correct horse' },
    });
    expect(signedIn.status()).toBe(201);
    await page.goto(`${t.url}/admin/contracts`);
    await expect
      .poll(() => page.getByRole('navigation', { name: 'Main' }).isVisible(), { timeout: 15_000, interval: 50 })
      .toBe(true);
    const link = page.getByRole('link', { name: /^API docs/ });
    expect(await link.getAttribute('href')).toBe('/apidoc/v1/');
    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await docs.waitForLoadState();
    expect(new URL(docs.url()).pathname).toBe('/apidoc/v1/');
    await docs.getByRole('heading', { name: 'SignDesk API', level: 1 }).waitFor({ timeout: UI_TIMEOUT_MS });
    // The docs' own navigation: the table of contents leads to an endpoint.
    await docs
      .getByRole('navigation', { name: 'Contents' })
      .getByRole('link', { name: 'Add a party to a draft' })
      .click();
    await expect.poll(() => new URL(docs.url()).hash, { timeout: 10_000, interval: 50 }).toBe('#createContractParty');
    // The window as a reader sees it: a whole-page image of every endpoint would be enormous.
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await docs.screenshot({ path: path.join(SCREENSHOT_DIR, 'apidoc.png') });
    expect(await auditAccessibility(docs), 'apidoc').toEqual([]);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await expect
      .poll(() => page.getByRole('link', { name: /^API-dokumentation/ }).getAttribute('href'), {
        timeout: 10_000,
        interval: 50,
      })
      .toBe('/apidoc/v1/');
    expect(problems).toEqual([]);
  });

  it('shows a party its own identity number when the contract shows identity numbers', async () => {
    const contract = await makeContract(
      t,
      [{ name: 'Anna Andersson', email: 'anna@example.se', identity_number: '19800101-1234' }],
      {
        show_identity_number: true,
      },
    );
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const { page, problems } = await openPage(browser);
    await page.goto(contract.parties[0]?.contract_url as string);
    await expect
      .poll(() => page.getByText('You sign as Anna Andersson, identity number 19800101-1234.').isVisible(), {
        timeout: 15_000,
        interval: 50,
      })
      .toBe(true);
    expect(problems).toEqual([]);
  });
});
