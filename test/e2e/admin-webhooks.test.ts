import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/index';
import { inTransaction } from '../../server/db/open-database';
import { gotoAdmin, signInThroughPage } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { makeTempDir, startTestServer, testConfig, type TestServer } from '../helpers/server';

/** The webhooks API is built on its own branch; this story runs by itself once /api/webhooks is served. */
async function isWebhooksApiServed(): Promise<boolean> {
  const probe = await createServer(testConfig(makeTempDir()));
  try {
    const document = (await (await fetch(`${probe.url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    return '/api/webhooks' in document.paths;
  } finally {
    await probe.close();
  }
}

const webhooksAvailable = await isWebhooksApiServed();

type RecordEvent = (ctx: unknown, type: string, data: { id: string; party?: string }) => unknown;

/** A receiver that answers 410 Gone (a permanent error) to its first ten deliveries, then 200. */
function startFlakyReceiver(): Promise<{ url: string; seen: () => number; close: () => Promise<void> }> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(count <= 10 ? 410 : 200, { 'content-type': 'text/plain' }).end(count <= 10 ? 'gone for now' : 'thanks');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/hooks/signdesk`, seen: () => count, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

describe.skipIf(!webhooksAvailable)('webhook consumers in the admin UI', () => {
  let browser: Browser;
  let t: TestServer;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;
  beforeAll(async () => {
    browser = await launchBrowser();
    receiver = await startFlakyReceiver();
    t = await startTestServer({ webhookFirstDelayS: 0, webhookRetryScheduleS: [1, 1, 1, 1, 1, 1, 1, 1], webhookTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  it('shows a consumer disabled after ten permanent errors, re-enables it, and retries an event by hand until it is delivered', async () => {
    const { page, problems } = await openPage(browser);
    await signInThroughPage(page, t.url, 'admin', 'correct horse');
    await gotoAdmin(page, t.url, '/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Add consumer' }).first().click();
    await page.getByRole('dialog').getByLabel('URL').fill(receiver.url);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByTestId('key-id').textContent()).toMatch(/^ed25519-\d+$/);
    expect(await page.getByRole('dialog').getByText('-----BEGIN PUBLIC KEY-----', { exact: false }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Done' }).click();

    // Ten events, each written the way the signing flow writes them: inside a transaction.
    const modulePath = path.resolve(import.meta.dirname, '../../server/services/webhooks/record-event.ts');
    const { recordEvent } = (await import(/* @vite-ignore */ modulePath)) as { recordEvent: RecordEvent };
    for (let n = 1; n <= 10; n += 1) inTransaction(t.server.ctx.db, () => recordEvent(t.server.ctx, 'contract.signed', { id: `/api/contracts/${n}` }));

    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await expect.poll(() => row.getByText('Disabled', { exact: true }).isVisible(), { timeout: 60_000, interval: 500 }).toBe(true);
    expect(receiver.seen()).toBe(10);
    expect(await page.getByText('A consumer is disabled').isVisible()).toBe(true);
    await screenshot(page, 'webhooks-disabled');
    expect(await auditAccessibility(page), 'webhooks-disabled').toEqual([]);

    await row.getByRole('button', { name: /^Re-enable/ }).click();
    await expect.poll(() => row.getByText('Enabled').isVisible()).toBe(true);

    await row.getByRole('link', { name: 'Event log' }).click();
    await expect.poll(() => page.getByTestId('event-row').count(), { timeout: 10_000 }).toBe(10);
    const first = page.getByTestId('event-row').first();
    await first.getByRole('button', { name: 'contract.signed', exact: true }).click();
    await expect.poll(() => page.getByTestId('attempt').count()).toBe(1);
    expect(await page.getByTestId('attempt').first().textContent()).toContain('HTTP 410');
    await screenshot(page, 'webhook-event-log');

    await first.getByRole('button', { name: /^Retry / }).click();
    await expect.poll(() => receiver.seen(), { timeout: 30_000 }).toBe(11);
    await expect.poll(() => page.getByTestId('attempt').count(), { timeout: 15_000 }).toBe(2);
    const attempts = await page.getByTestId('attempt').allTextContents();
    expect(attempts[0]).toContain('HTTP 410');
    expect(attempts[1]).toContain('HTTP 200');
    expect(attempts[1]).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(attempts[1]).toMatch(/\d+ ms/);
    await screenshot(page, 'webhook-delivered');
    expect(await auditAccessibility(page), 'webhook-delivered').toEqual([]);
    expect(problems).toEqual([]);
  });
});
