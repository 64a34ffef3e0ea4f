import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughPage } from '../helpers/admin-ui';
import { launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

describe('the admin UI for an ordinary user', () => {
  let browser: Browser;
  let t: TestServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    t = await startTestServer();
    await t.api('PUT', '/api/settings/general', {
      body: { office_name: 'Berg & Partners', office_email: 'office@berg.test' },
    });
    await makeUser(t, 'clerk');
    await t.api('POST', '/api/contracts', { body: { name: 'Board minutes (admin only)' } });
    await t.api('POST', '/api/contract_templates', { body: { name: 'Board template (unpublished)' } });
    await t.api('POST', '/api/contract_templates', {
      body: { name: 'Office lease', content: 'Rent', is_published: true },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows only contracts and templates, and only what the user may see', async () => {
    const { page, problems } = await openPage(browser);
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && [403, 404].includes(response.status()))
        refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    await signInThroughPage(page, t.url, 'clerk', 'clerk password');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Contracts', 'Templates']);
    await expect.poll(() => page.getByRole('heading', { name: 'Contracts', level: 1 }).isVisible()).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Board minutes (admin only)').count()).toBe(0);

    await nav.getByRole('link', { name: 'Templates' }).click();
    await expect.poll(() => page.getByText('Office lease').first().isVisible()).toBe(true);
    expect(await page.getByText('Board template (unpublished)').count()).toBe(0);
    await page.getByText('Office lease').first().click();
    await expect.poll(() => page.getByText('Published by a colleague').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await page.getByLabel('Content').isDisabled()).toBe(true);
    await screenshot(page, 'ordinary-user-template');

    for (const route of ['/users', '/tokens', '/webhooks', '/outbox', '/settings']) {
      await page.goto(`${t.url}/admin${route}`);
      await expect.poll(() => page.getByRole('heading', { name: 'For administrators only' }).isVisible()).toBe(true);
    }
    await page.waitForLoadState('networkidle');
    // The UI never asked for what the user may not have.
    expect(refused).toEqual([]);
    expect(problems).toEqual([]);
  });
});
