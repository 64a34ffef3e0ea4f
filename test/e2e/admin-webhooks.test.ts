import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/open-database';
import { fitsWidth, gotoAdmin, signInThroughPage, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

type RecordEvent = (ctx: unknown, type: string, data: { id: string; party?: string }) => unknown;

/** A receiver that answers 410 Gone (a permanent error) to its first ten deliveries, then 200. */
function startFlakyReceiver(): Promise<{ url: string; seen: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res
        .writeHead(count <= 10 ? 410 : 200, { 'content-type': 'text/plain' })
        .end(count <= 10 ? 'gone for now' : 'thanks');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hooks/signdesk`,
        seen: () => count,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe('webhook consumers in the admin UI', { timeout: 180_000 }, () => {
  let browser: Browser;
  let t: TestServer;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  beforeAll(async () => {
    browser = await launchBrowser();
    receiver = await startFlakyReceiver();
    t = await startTestServer({
      webhookFirstDelayS: 0,
      webhookRetryScheduleS: [1, 1, 1, 1, 1, 1, 1, 1],
      webhookTimeoutMs: 2_000,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  it('shows a consumer disabled after ten permanent errors, holds what happens meanwhile, delivers it on re-enabling, retries the failed in bulk, and asks before sending a delivered event again', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Add consumer' }).first().click();
    await page.getByRole('dialog').getByLabel('URL').fill(receiver.url);
    await page.getByRole('dialog').getByLabel('Contract sent (contract.sent)').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByTestId('key-id').textContent()).toMatch(/^ed25519-\d+$/);
    expect(await page.getByRole('dialog').getByText('-----BEGIN PUBLIC KEY-----', { exact: false }).isVisible()).toBe(
      true,
    );
    await page.getByRole('button', { name: 'Done' }).click();
    expect((await t.api('GET', '/api/webhooks')).body[0].events).toEqual(['contract.sent']);

    // Ten events, each written the way the signing flow writes them: inside a transaction.
    const modulePath = path.resolve(import.meta.dirname, '../../server/webhooks/record-event.ts');
    const { recordEvent } = (await import(/* @vite-ignore */ modulePath)) as { recordEvent: RecordEvent };
    const record = async (n: number) =>
      inTransaction(t.server.ctx.db, async () =>
        recordEvent(t.server.ctx, 'contract.signed', { id: `/api/contracts/${n}` }),
      );
    for (let n = 1; n <= 10; n += 1) await record(n);

    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await row.getByText('Disabled', { exact: true }).waitFor({ timeout: 60_000 });
    expect(receiver.seen()).toBe(10);
    await page.getByText('A consumer is disabled').waitFor({ timeout: UI_TIMEOUT_MS });
    // The sidebar marks it on every page.
    await page.getByTestId('disabled-webhooks-badge').waitFor({ timeout: 30_000 });
    await screenshot(page, 'webhooks-disabled');
    expect(await auditAccessibility(page), 'webhooks-disabled').toEqual([]);

    // A contract is signed during the outage: its event is held, not attempted, and nothing can be retried.
    await record(11);
    await row.getByRole('link', { name: 'Event log' }).click();
    await page.getByText('Events held while it is disabled: 1.').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('event-row').count()).toBe(11);
    expect(await page.locator('[data-testid="event-row"][data-state="held"]').count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Retry / }).count()).toBe(0);
    await screenshot(page, 'webhook-held');
    expect(await auditAccessibility(page), 'webhook-held').toEqual([]);

    await page.getByRole('button', { name: 'Re-enable and deliver 1 held' }).click();
    await expect.poll(() => receiver.seen(), { timeout: 30_000 }).toBe(11);
    await page.locator('[data-testid="event-row"][data-state="delivered"]').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('disabled-webhooks-badge').count(), { timeout: 30_000 }).toBe(0);

    // One button for the ten that failed while the receiver was broken.
    await page.getByRole('button', { name: 'Retry 10 failed' }).click();
    await expect.poll(() => receiver.seen(), { timeout: 30_000 }).toBe(21);
    await expect
      .poll(() => page.locator('[data-testid="event-row"][data-state="delivered"]').count(), { timeout: 30_000 })
      .toBe(11);
    const first = page.getByTestId('event-row').last();
    await first.getByRole('button', { name: 'contract.signed', exact: true }).click();
    await expect.poll(() => page.getByTestId('attempt').count()).toBe(2);
    const attempts = await page.getByTestId('attempt').allTextContents();
    expect(attempts[0]).toContain('HTTP 410');
    expect(attempts[1]).toContain('HTTP 200');
    expect(attempts[1]).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await screenshot(page, 'webhook-delivered');

    // Sending a delivered event again asks first; Cancel sends nothing.
    await first.getByRole('button', { name: /^Send again… contract\.signed of / }).click();
    const confirm = page.getByRole('dialog', { name: 'Send a delivered event again?' });
    await confirm.waitFor({ timeout: 30_000 });
    await screenshot(page, 'webhook-redeliver-confirm');
    expect(await auditAccessibility(page), 'redeliver dialog').toEqual([]);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(receiver.seen()).toBe(21);
    await first.getByRole('button', { name: /^Send again… contract\.signed of / }).click();
    await confirm.getByRole('button', { name: 'Send again…' }).click();
    await expect.poll(() => receiver.seen(), { timeout: 30_000 }).toBe(22);
    expect(await auditAccessibility(page), 'webhook-delivered').toEqual([]);
    expect(problems).toEqual([]);
  });

  it('reads well in Swedish and at 800 px', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.setViewportSize({ width: 800, height: 900 });
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    const consumer = (await t.api('GET', '/api/webhooks')).body[0];
    await gotoAdmin(page, t.url, `/webhooks/${consumer.self.split('/').at(-1)}`, consumer.url);
    await page.getByTestId('event-row').first().waitFor({ timeout: 30_000 });
    await page.getByText('Levererad').first().waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByLabel('Part öppnade länken (contract.party_opened)').check();
    await page.getByRole('button', { name: 'Spara' }).click();
    await expect
      .poll(async () => (await t.api('GET', consumer.self)).body.events)
      .toEqual(['contract.sent', 'contract.party_opened']);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'webhook-sv-800');
    expect(await auditAccessibility(page), 'webhook in Swedish at 800 px').toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
