import { mapInOrder } from '../../server/core/in-order';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { recordTestEvent } from '../helpers/webhooks';

/**
 * Deliveries run in parallel (16 at a time), yet a consumer is disabled at its tenth permanent
 * error: a receiver that never answers gets ten attempts, not one per delivery in flight.
 */
describe('a consumer that never answers, with many events at once', () => {
  let t: TestServer | undefined;
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('is disabled at its tenth timeout; the other events are held, never attempted', { timeout: 60_000 }, async () => {
    receiver = await startWebhookReceiver();
    receiver.respond(() => 'hang');
    t = await startTestServer({ webhookFirstDelayS: 0, webhookTimeoutMs: 1_000 });
    const consumer = (await t.api('POST', '/api/webhooks', { body: { url: `${receiver.url}/silent` } })).body as {
      self: string;
      key_id: string;
      public_key: string;
    };
    receiver.trust(consumer.key_id, consumer.public_key);
    const server = t;
    const ids = await mapInOrder(
      Array.from({ length: 30 }, (_, n) => n),
      async (n) => recordTestEvent(server.server, 'contract.signed', { id: `/api/contracts/${n + 1}` }),
    );
    await expect
      .poll(async () => (await server.api('GET', consumer.self)).body.disabled_time, { timeout: 30_000 })
      .not.toBeNull();
    await expect.poll(async () => server.server.ctx.repos.jobs.countPending('webhook'), { timeout: 30_000 }).toBe(0);

    const events = (await server.api('GET', `${consumer.self}/events?per_page=100`)).body as Array<{
      event_id: number;
      state: string;
      attempts: Array<{ outcome: string }>;
    }>;
    expect(events.map((event) => event.event_id).sort((a, b) => a - b)).toEqual(ids);
    const attempts = events.flatMap((event) => event.attempts);
    expect(attempts).toHaveLength(10);
    expect(attempts.every((attempt) => attempt.outcome === 'permanent')).toBe(true);
    expect(events.filter((event) => event.state === 'failed')).toHaveLength(10);
    expect(events.filter((event) => event.state === 'held')).toHaveLength(20);
    expect(receiver.requests).toHaveLength(10);
  });
});
