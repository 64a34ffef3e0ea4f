import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser';
import { UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { makeContract, type SigningEnv } from '../helpers/signing';
import { drawWithTouch, phoneContext, waitForPagesDrawn } from '../helpers/signing-page';
import { startSigningBrowser } from '../helpers/signing-browser';

const TEXT = { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 400, width: 240, height: 20 };
const SIGNATURE = { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 480, width: 240, height: 80 };

/** What the page keeps in this browser's storage for signing links: the drafts. */
const storedDrafts = (page: Page) =>
  page.evaluate<string[]>(`Object.keys(localStorage).filter((key) => key.startsWith('signdesk.draft.'))`);

describe("the party's unfinished work on its device", () => {
  let env: SigningEnv;
  let browser: Browser;
  startSigningBrowser((started) => ({ env, browser } = started));

  it('keeps typed text and a drawn signature through a reload, sends none of it before signing, and keeps nothing once signed', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Rut Resa', email: 'rut@example.test', fields: [TEXT, SIGNATURE] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const link = contract.parties[0]!.contract_url;
    const context = await phoneContext(browser);
    const page = await context.newPage();
    const writes: string[] = [];
    page.on('request', (request) => {
      // The page's report that it was opened (POST …/opened) carries nothing the party typed.
      if (request.method() !== 'GET' && !request.url().endsWith('/opened'))
        writes.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(link);
    await waitForPagesDrawn(page, 2);
    expect(await page.locator('.draft-kept').count()).toBe(0);
    await page.locator('button.field-text').tap();
    await page.locator('.action-bar input[type="text"]').fill('Delivery to Gothenburg');
    await page.locator('.field-signature').tap();
    const dialog = page.getByRole('dialog', { name: 'Your signature' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    await drawWithTouch(page, '.draw-canvas >> nth=0', [
      Array.from({ length: 25 }, (_, index): [number, number] => [20 + index * 12, 140 - index * 5]),
    ]);
    await dialog.getByRole('button', { name: 'Use this signature' }).click();
    await expect.poll(() => page.locator('.progress').textContent()).toBe('All 2 fields done');
    const drawn = await page.locator('.field-signature img.mark-image').getAttribute('src');
    expect(drawn).toMatch(/^data:image\/png;base64,/);

    // The tab is reloaded (or the phone discarded it): the work is still there, as it was.
    await page.reload();
    await waitForPagesDrawn(page, 2);
    await expect.poll(() => page.locator('.progress').textContent()).toBe('All 2 fields done');
    expect(await page.locator('button.field-text').getAttribute('aria-label')).toContain('Delivery to Gothenburg');
    expect(await page.locator('.field-signature img.mark-image').getAttribute('src')).toBe(drawn);
    // The party is told where the work was kept.
    await page.getByText('What you filled in earlier was kept on this device').waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'signing-draft-restored');
    expect(await storedDrafts(page)).toHaveLength(1);
    // Kept on the device only: the server heard nothing of it yet.
    expect(writes).toEqual([]);

    await page.getByRole('button', { name: 'Sign the document' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign the document' });
    await confirm.getByLabel(/agree to sign it electronically/).click();
    await confirm.getByRole('button', { name: 'Sign the document' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document is signed by everyone' }).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/POST .*\/accept$/);
    expect(await storedDrafts(page)).toEqual([]);
    // What was signed is what the party typed before the reload.
    const values = await env.t.api('GET', `${contract.self}/annotations`);
    expect(values.body.map((annotation: { value: unknown }) => annotation.value)).toContain('Delivery to Gothenburg');
    // A fresh load after signing finds nothing kept.
    const fresh = await context.newPage();
    await fresh.goto(link);
    await expect
      .poll(() => fresh.getByRole('heading', { name: 'The document is signed by everyone' }).isVisible(), {
        timeout: 20_000,
      })
      .toBe(true);
    expect(await storedDrafts(fresh)).toEqual([]);
    await context.close();
  }, 180_000);

  it('drops the draft when the sender withdraws the document, and a draft of another link is not this one', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Sam Sten', email: 'sam@example.test', fields: [TEXT, SIGNATURE] },
      { name: 'Tor Tall', email: 'tor@example.test', fields: [{ ...TEXT, pos_y: 300 }] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const context = await phoneContext(browser);
    const page = await context.newPage();
    await page.goto(contract.parties[0]!.contract_url);
    await waitForPagesDrawn(page, 2);
    await page.locator('button.field-text').tap();
    await page.locator('.action-bar input[type="text"]').fill('Only for Sam');
    await expect.poll(() => storedDrafts(page)).toHaveLength(1);
    const [samsDraft] = await storedDrafts(page);
    // The other party, in the same browser: its own empty field, not Sam's words.
    const other = await context.newPage();
    await other.goto(contract.parties[1]!.contract_url);
    await waitForPagesDrawn(other, 2);
    expect(await other.locator('button.field-text').getAttribute('aria-label')).not.toContain('Only for Sam');
    await other.close();

    const withdrawn = await env.t.api('POST', `${contract.self}/withdraw`, { body: {} });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { name: 'The document was withdrawn' }).isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await storedDrafts(page)).not.toContain(samsDraft);
    await context.close();
  }, 180_000);
});
