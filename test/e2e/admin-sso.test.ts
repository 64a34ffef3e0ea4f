import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider';
import { startTestServer, type TestServer } from '../helpers/server';

/** The provider's development pages import a web font; this machine has no internet to fetch it from. */
async function withoutWebFonts(page: Page): Promise<void> {
  await page.route('https://fonts.googleapis.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
  );
}

/** On the sign-in page: the provider's button, its login and consent pages, and back to SignDesk. */
async function signInWithProvider(page: Page, baseUrl: string, login: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/`);
  await page.getByRole('button', { name: 'Sign in with Office ID' }).click();
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('single sign-on in the admin UI', { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  let provider: TestProvider;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    // Another site than SignDesk's 127.0.0.1: the way back is a cross-site navigation, as from a real provider.
    provider = await startOidcProvider(`${t.url}/admin/sso-callback`, { hostname: 'localhost' });
    provider.accounts.set('anna', { email: 'anna@office.test', groups: ['signdesk-admins'], given_name: 'Anna' });
    provider.accounts.set('eve', { email: 'eve@office.test', groups: ['marketing'] });
  });
  afterAll(async () => {
    await browser?.close();
    await provider?.close();
    await t?.close();
  });

  it('is set up on the settings card, and its button signs a new administrator in through the provider', async () => {
    const admin = await openPage(browser);
    await signInThroughPage(admin.page, t.url, 'admin', 'correct horse');
    await gotoAdmin(admin.page, t.url, '/settings', 'Settings');
    const card = admin.page.getByRole('region', { name: 'Single sign-on (OpenID Connect)' });
    await card.getByText(`${t.url}/admin/sso-callback`).waitFor({ timeout: UI_TIMEOUT_MS });
    await card.getByLabel('Offer single sign-on on the sign-in page').check();
    await card.getByLabel('Provider name').fill('Office ID');
    await card.getByLabel('Issuer URL').fill(provider.issuer);
    await card.getByLabel('Client ID').fill(provider.clientId);
    await card.getByLabel('Client secret').fill(provider.clientSecret);
    await card.getByLabel('Users', { exact: true }).selectOption('create');
    await card.getByRole('button', { name: 'Add a value' }).click();
    await card.getByLabel('Claim value', { exact: true }).fill('signdesk-admins');
    await card.getByLabel('Permission').selectOption('CUSTOMER_ADMIN_USER');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('Saved.', { exact: true }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect((await t.api('GET', '/api/settings/sso')).body).toMatchObject({
      is_enabled: true,
      issuer_url: provider.issuer,
      client_secret: '********',
      claim_mapping: [{ value: 'signdesk-admins', permission_template: 'CUSTOMER_ADMIN_USER' }],
      user_mode: 'create',
    });
    await screenshot(admin.page, 'settings-sso');
    expect(await auditAccessibility(admin.page), 'settings-sso').toEqual([]);

    await admin.page.setViewportSize({ width: 800, height: 900 });
    await admin.page.evaluate("localStorage.setItem('signdesk.language', 'sv')");
    await gotoAdmin(admin.page, t.url, '/settings', 'Inställningar');
    await admin.page
      .getByRole('region', { name: 'Enkel inloggning (OpenID Connect)' })
      .getByText('En hemlighet är sparad', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await fitsWidth(admin.page)).toBe(true);
    await screenshot(admin.page, 'settings-sso-sv-800');
    expect(admin.problems).toEqual([]);

    // A stranger to this browser: the button, the provider, and back signed in as a new administrator.
    const anna = await openPage(browser);
    await withoutWebFonts(anna.page);
    await signInWithProvider(anna.page, t.url, 'anna');
    await anna.page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await anna.page.getByRole('link', { name: 'Settings' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(new URL(anna.page.url()).search).toBe('');
    const users = (await t.api('GET', '/api/users')).body;
    expect(users).toContainEqual(
      expect.objectContaining({ username: 'anna@office.test', permission_template: 'CUSTOMER_ADMIN_USER' }),
    );
    await screenshot(anna.page, 'sso-signed-in');
    expect(anna.problems).toEqual([]);

    // A group the office did not map: back on the sign-in page with the reason.
    const eve = await openPage(browser);
    await withoutWebFonts(eve.page);
    await signInWithProvider(eve.page, t.url, 'eve');
    await eve.page
      .getByText('has no groups value this office has given access to SignDesk', { exact: false })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await eve.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await screenshot(eve.page, 'sso-refused');
    expect(await auditAccessibility(eve.page), 'sso-refused').toEqual([]);
    expect(eve.problems).toEqual([]);
  });
});
