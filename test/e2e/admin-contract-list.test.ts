import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsWidth, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type MadeUser } from '../helpers/users';
import { inTransaction } from '../../server/db/database';
import { rawSql } from '../../server/db/raw-sql';

/** How long the page may take to show a change on a busy machine. */
const until = { timeout: 20_000, interval: 50 };

describe('the contract list: search, counts per status, state in the URL, at 800 px', () => {
  let t: TestServer;
  let browser: Browser;
  let clerk: MadeUser;
  beforeAll(async () => {
    t = await startTestServer();
    browser = await launchBrowser();
    await t.api('PUT', '/api/settings/general', {
      body: { office_name: 'Berg & Partners Advokatbyrå', office_email: 'office@berg.test' },
    });
    clerk = await makeUser(t, 'karin', { firstname: 'Karin', lastname: 'Ek' });
    const pdf = await makePdf({ pages: 1 });
    // 22 drafts with a party each, then 3 sent ones to Greta Sund: 25 in all, two pages of 20.
    for (let n = 1; n <= 25; n += 1) {
      const made = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } });
      const isGreta = n > 22;
      await t.api('PUT', made.body.self, {
        body: { name: isGreta ? `Uppdrag ${n}` : `Avtal ${String(n).padStart(2, '0')}` },
      });
      await t.api('POST', `${made.body.self}/parties`, {
        body: isGreta
          ? { name: 'Greta Sund', email: 'greta@sund.test' }
          : { name: `Person ${n}`, email: `person${n}@example.test` },
      });
      if (isGreta) expect((await t.api('POST', `${made.body.self}/send`, { body: { silent: true } })).status).toBe(200);
    }
    const own = await clerk.api('POST', '/api/contracts', { body: { content: 'Eget', name: 'Karins avtal' } });
    expect(own.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function signIn(page: Page, username: string, password: string, route: string, heading: string): Promise<void> {
    await page.goto(`${t.url}/admin${route}`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { name: heading, level: 1 }).isVisible(), until).toBe(true);
  }
  const tabText = (page: Page, status: string) => page.locator(`.status-tab[data-status="${status}"]`).textContent();
  const rowNames = (page: Page) => page.locator('tbody .table-link').allTextContents();
  const search = (page: Page) => new URL(page.url()).searchParams;

  it('searches by party, filters by status with counts, and keeps filters and page through Back and a reload', async () => {
    const { page, problems } = await openPage(browser);
    await signIn(page, 'admin', 'correct horse', '/contracts', 'Contracts');
    await expect.poll(() => tabText(page, 'all'), until).toBe('All26');
    expect(await tabText(page, 'draft')).toBe('Draft23');
    expect(await tabText(page, 'sent')).toBe('Sent3');
    await expect.poll(() => page.getByText('Page 1 of 2 · 26 in all').isVisible(), until).toBe(true);

    await page.getByLabel('Search').fill('GRETA');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => rowNames(page), until).toEqual(['Uppdrag 25', 'Uppdrag 24', 'Uppdrag 23']);
    expect(search(page).get('q')).toBe('GRETA');
    await expect.poll(() => tabText(page, 'all'), until).toBe('All3');
    expect(await tabText(page, 'draft')).toBe('Draft0');
    await page.locator('.status-tab[data-status="draft"]').click();
    await expect.poll(() => page.getByText('No contract matches').isVisible(), until).toBe(true);
    expect(Object.fromEntries(search(page))).toEqual({ q: 'GRETA', status: 'draft' });
    await page.getByLabel('Search').fill('person1');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect
      .poll(() => rowNames(page), until)
      .toEqual([
        'Avtal 19',
        'Avtal 18',
        'Avtal 17',
        'Avtal 16',
        'Avtal 15',
        'Avtal 14',
        'Avtal 13',
        'Avtal 12',
        'Avtal 11',
        'Avtal 10',
        'Avtal 01',
      ]);

    // Page 2 of the plain list, a contract opened from it, then Back: the same page, the same rows.
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => search(page).toString(), until).toBe('');
    await expect.poll(() => page.getByText('Page 1 of 2 · 26 in all').isVisible(), until).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByText('Page 2 of 2 · 26 in all').isVisible(), until).toBe(true);
    const second = await rowNames(page);
    expect(second).toEqual(['Avtal 06', 'Avtal 05', 'Avtal 04', 'Avtal 03', 'Avtal 02', 'Avtal 01']);
    expect(search(page).get('page')).toBeTruthy();
    await page.getByRole('link', { name: 'Avtal 03' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Avtal 03', level: 1 }).isVisible(), until).toBe(true);
    await page.goBack();
    await expect.poll(() => page.getByText('Page 2 of 2 · 26 in all').isVisible(), until).toBe(true);
    expect(await rowNames(page)).toEqual(second);
    // The contract page's own link back returns there too, and a reload keeps it.
    await page.getByRole('link', { name: 'Avtal 02' }).click();
    await page.getByRole('link', { name: '← Contracts' }).click();
    await expect.poll(() => page.getByText('Page 2 of 2 · 26 in all').isVisible(), until).toBe(true);
    await page.reload();
    await expect.poll(() => rowNames(page), until).toEqual(second);
    await screenshot(page, 'contracts-page-2');
    expect(await auditAccessibility(page), 'contract list, page 2').toEqual([]);

    await page.getByLabel('Sort by').selectOption('name');
    await expect.poll(() => search(page).get('sort'), until).toBe('name');
    expect(search(page).get('page')).toBeNull();
    await expect.poll(async () => (await rowNames(page))[0], until).toBe('Avtal 01');
    expect(problems).toEqual([]);
  }, 120_000);

  it('filters by an exact metadata value under More filters, with counts, and says when it is not key=value', async () => {
    const tagged = await t.api('POST', '/api/contracts', {
      body: { content: 'Order', name: 'Order A-1042', metadata: { order_id: 'A-1042' } },
    });
    expect(tagged.status).toBe(201);
    const { page, problems } = await openPage(browser);
    await signIn(page, 'admin', 'correct horse', '/contracts', 'Contracts');
    await page.getByText('More filters').click();
    await page.getByLabel('Metadata').fill('order_id=A-1042');
    await page.getByLabel('Metadata').press('Enter');
    await expect.poll(() => rowNames(page), until).toEqual(['Order A-1042']);
    expect(search(page).get('meta')).toBe('order_id=A-1042');
    await expect.poll(() => tabText(page, 'all'), until).toBe('All1');
    expect(await auditAccessibility(page), 'contract list filtered by metadata').toEqual([]);
    // A reload keeps the filter, its box open.
    await page.reload();
    await expect.poll(() => page.getByLabel('Metadata').inputValue(), until).toBe('order_id=A-1042');
    await expect.poll(() => rowNames(page), until).toEqual(['Order A-1042']);
    // Not key=value: said under the box, and the list shows everything.
    await page.getByLabel('Metadata').fill('order id');
    await page.getByLabel('Metadata').press('Enter');
    await expect.poll(() => page.getByText('Write key=value').isVisible(), until).toBe(true);
    await expect.poll(() => tabText(page, 'all'), until).toBe('All27');
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await expect.poll(() => search(page).get('meta'), until).toBeNull();
    expect((await t.api('DELETE', tagged.body.self)).status).toBe(204);
    expect(problems).toEqual([]);
  }, 120_000);

  it('fits 800 px: the filters leave the contracts on the first screen, and row buttons stay in reach', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 600 });
    await signIn(page, 'admin', 'correct horse', '/contracts', 'Contracts');
    await expect.poll(() => page.locator('tbody tr').count(), until).toBe(20);
    const firstRow = await page.locator('tbody tr').first().boundingBox();
    expect(firstRow && firstRow.y + firstRow.height).toBeLessThan(600);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'contracts-800');
    expect(await auditAccessibility(page), 'contract list at 800 px').toEqual([]);

    const draft = (await t.api('GET', '/api/contracts?name=Avtal%2022')).body[0];
    await page.goto(`${t.url}/admin/contracts/${draft.self.split('/').at(-1)}`);
    const edit = page.getByRole('button', { name: /^Edit Person/ });
    await expect.poll(() => edit.isVisible(), until).toBe(true);
    const box = await edit.boundingBox();
    expect(box && box.x + box.width).toBeLessThanOrEqual(800);
    await edit.click();
    await expect.poll(() => page.getByRole('dialog').isVisible(), until).toBe(true);
    await page.keyboard.press('Escape');
    await screenshot(page, 'contract-draft-800');
    expect(await fitsWidth(page)).toBe(true);

    // In Swedish at 800 px, too.
    await page.evaluate("window.localStorage.setItem('signdesk.language', 'sv')");
    await page.goto(`${t.url}/admin/contracts?status=sent`);
    await expect.poll(() => tabText(page, 'sent'), until).toBe('Skickat3');
    await screenshot(page, 'contracts-800-sv');
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'contract list in Swedish at 800 px').toEqual([]);
    await context.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it('names authors and actors, and offers no delete of one’s own account', async () => {
    const clerkPage = await openPage(browser);
    await signIn(clerkPage.page, 'karin', 'karin password', '/contracts', 'Contracts');
    const row = clerkPage.page.locator('tbody tr').filter({ hasText: 'Karins avtal' });
    await expect.poll(() => row.textContent(), until).toContain('Karin Ek');
    expect(await clerkPage.page.getByText('/api/users/').count()).toBe(0);
    await clerkPage.page.getByRole('link', { name: 'Karins avtal' }).click();
    const entry = clerkPage.page.locator('[data-testid="activity-row"][data-event="contract.created"]');
    await expect.poll(() => entry.textContent(), until).toContain('Karin Ek');
    expect(clerkPage.problems).toEqual([]);

    const { page, problems } = await openPage(browser);
    await signIn(page, 'admin', 'correct horse', '/users', 'Users');
    await expect.poll(() => page.getByRole('button', { name: 'Delete karin' }).isVisible(), until).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete admin' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit admin' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.goto(`${t.url}/admin/contracts`);
    await expect
      .poll(() => page.locator('tbody tr').filter({ hasText: 'Karins avtal' }).textContent(), until)
      .toContain('Karin Ek');
    expect(problems).toEqual([]);
  }, 120_000);

  it('says when a search shows only its newest 1,000 matches, in the list and in the API', async () => {
    const partial = async (query: string) =>
      (await t.api('GET', `/api/contracts?q=${query}`)).headers.get('search-partial');
    expect(await partial('av')).toBeNull();
    // An office of more than a thousand contracts (seeded as bench/contracts.ts does, through the server's own connection).
    const sqlite = rawSql(t.server.ctx.db);
    const { fileId } = (await sqlite.get('SELECT original_file_id AS "fileId" FROM contracts LIMIT 1')) as {
      fileId: number;
    };
    await inTransaction(t.server.ctx.db, async () => {
      for (let n = 0; n < 1_000; n += 1)
        await sqlite.run(
          `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at)
           VALUES (?, ?, 'draft', 'upload', ?, '[[595,842]]', 1, 0, 0)`,
          `Arkiv ${n}`,
          `arkiv ${n}`,
          fileId,
        );
      // Rows written beneath the repositories: PostgreSQL's search text is the repository's to make.
      await t.server.ctx.repos.contracts.rebuildSearch();
    });
    expect(await partial('av')).toBe('true');
    expect((await t.api('GET', '/api/contract_counts?q=av')).headers.get('search-partial')).toBe('true');
    expect(await partial('Uppdrag%2024')).toBeNull();

    const { page, problems } = await openPage(browser);
    await signIn(page, 'admin', 'correct horse', '/contracts?q=Uppdrag', 'Contracts');
    await expect.poll(() => rowNames(page), until).toContain('Uppdrag 24');
    expect(await page.getByTestId('search-partial').count()).toBe(0);
    await page.goto(`${t.url}/admin/contracts?q=av`);
    await expect
      .poll(() => page.getByTestId('search-partial').textContent(), until)
      .toContain('Showing the newest 1,000 matches');
    expect(problems).toEqual([]);
  }, 120_000);
});
