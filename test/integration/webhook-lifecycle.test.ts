import { mapInOrder } from '../../server/core/in-order';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../server/index';
import { cli, startTestServer, type TestServer } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';
import { startWebhookReceiver, type Reply, type WebhookReceiver } from '../helpers/webhook-receiver';
import { recordTestEvent } from '../helpers/webhooks';
import { rawSql } from '../../server/db/raw-sql';

type Consumer = { self: string; key_id: string; public_key: string; disabled_time: string | null };

/**
 * A receiver sees an attempt when it arrives, its sending's latency after the server sent it: two
 * arrivals' gap is the schedule's give or take the difference of two latencies (JITTER_MS), and
 * on a busy machine (other test files run beside this one) an attempt may come up to LATE_MS late.
 */
const JITTER_MS = 250;
const LATE_MS = 1_500;

describe('webhook retries, disabling and the event log', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const setUp = async (overrides: Partial<Config>) => {
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const t = await startTestServer({ webhookFirstDelayS: 0, webhookTimeoutMs: 1_000, ...overrides });
    cleanups.push(() => t.close());
    const register = async (path: string, contactEmail?: string): Promise<Consumer> => {
      const body = contactEmail
        ? { url: `${receiver.url}${path}`, contact_email: contactEmail }
        : { url: `${receiver.url}${path}` };
      const consumer = (await t.api('POST', '/api/webhooks', { body })).body as Consumer;
      receiver.trust(consumer.key_id, consumer.public_key);
      return consumer;
    };
    return { t, receiver, register };
  };

  const smtp = async (): Promise<SmtpReceiver> => {
    const server = await startSmtpReceiver();
    cleanups.push(() => server.close());
    return server;
  };

  const eventsOf = async (t: TestServer, consumer: Consumer, query = '') =>
    (await t.api('GET', `${consumer.self}/events?per_page=100${query}`)).body as Array<{
      event_id: number;
      state: string;
      attempts: unknown[];
    }>;
  const stateOf = async (t: TestServer, consumer: Consumer, eventId: number) =>
    (await t.api('GET', `${consumer.self}/events/${eventId}`)).body.state as string;
  const verifiedFor = (receiver: WebhookReceiver, contractPath: string) =>
    receiver.verified().filter((request) => request.json.data.id === contractPath);

  it('makes the first attempt after the first delay, retries on the (scaled) schedule, then marks the delivery failed', async () => {
    const schedule = [0.4, 0.8, 1.2];
    const { t, receiver, register } = await setUp({ webhookRetryScheduleS: schedule, webhookFirstDelayS: 0.5 });
    receiver.respond(() => 503);
    const consumer = await register('/busy');
    const recordedAt = Date.now();
    const eventId = await recordTestEvent(t.server, 'contract.signed', { id: '/api/contracts/1' });
    await expect.poll(() => stateOf(t, consumer, eventId), { timeout: 15_000 }).toBe('failed');

    const arrivals = receiver.requests.map((request) => request.at);
    expect((arrivals[0] as number) - recordedAt).toBeGreaterThanOrEqual(500 - 5);
    // Late by at most LATE_MS: the machine may be busy (other test files run beside this one).
    expect((arrivals[0] as number) - recordedAt).toBeLessThanOrEqual(500 + LATE_MS);
    expect(receiver.requests.every((request) => request.isVerified)).toBe(true);
    expect(arrivals).toHaveLength(schedule.length + 1);
    // Gaps between arrivals carry the jitter of two deliveries' latency on a busy machine.
    schedule.forEach((delayS, index) => {
      const gap = (arrivals[index + 1] as number) - (arrivals[index] as number);
      expect(gap, `gap ${index + 1}`).toBeGreaterThanOrEqual(delayS * 1000 - JITTER_MS);
      expect(gap, `gap ${index + 1}`).toBeLessThanOrEqual(delayS * 1000 + LATE_MS);
    });
    // Every attempt is signed afresh: its created time is the time it was sent.
    for (const request of receiver.requests) {
      const created = Number(/created=(\d+)/.exec(String(request.headers['signature-input']))?.[1]);
      expect(Math.abs(created - Math.floor(request.at / 1000))).toBeLessThanOrEqual(1);
    }
    const entry = (await t.api('GET', `${consumer.self}/events/${eventId}`)).body;
    expect(entry.attempts.map((attempt: { outcome: string }) => attempt.outcome)).toEqual([
      'retry',
      'retry',
      'retry',
      'failed',
    ]);
    expect(entry.attempts.every((attempt: { status_code: number }) => attempt.status_code === 503)).toBe(true);
    expect(entry.next_attempt_time).toBeNull();
    expect(await t.server.ctx.repos.jobs.countPending('webhook')).toBe(0);
    expect((await eventsOf(t, consumer, '&state=failed')).map((event) => event.event_id)).toEqual([eventId]);
  });

  it('disables a consumer after ten permanent errors, e-mails its contact, keeps pending events for re-enabling', async () => {
    const mail = await smtp();
    const { t, receiver, register } = await setUp({
      webhookRetryScheduleS: [3],
      smtpUrl: mail.url,
      mailFrom: 'SignDesk <signdesk@office.test>',
    });
    const replies = new Map<string, Reply>();
    receiver.respond((request) => replies.get(request.json.data.id) ?? 200);
    const consumer = await register('/flaky', 'integrator@partner.test');

    // Three events meet a busy receiver and wait for their retry 3 s later...
    const waiting = [1, 2, 3].map((n) => `/api/contracts/${n}`);
    for (const id of waiting) replies.set(id, 500);
    const waitingIds = await mapInOrder(waiting, async (id) => recordTestEvent(t.server, 'contract.signed', { id }));
    await expect.poll(() => receiver.verified().length).toBe(3);
    // ...while ten more meet 410 Gone: ten permanent errors in a row.
    const gone = Array.from({ length: 10 }, (_, n) => `/api/contracts/${100 + n}`);
    for (const id of gone) replies.set(id, 410);
    const goneIds = await mapInOrder(gone, async (id) => recordTestEvent(t.server, 'contract.signed', { id }));
    await expect
      .poll(async () => (await t.api('GET', consumer.self)).body.disabled_time, { timeout: 10_000 })
      .not.toBeNull();

    const [notice] = await mail.waitForMails(1);
    expect(notice?.envelopeTo).toEqual(['integrator@partner.test']);
    expect(notice?.mail.subject).toContain(`${receiver.url}/flaky`);
    expect(notice?.mail.text).toContain(`POST ${t.url}${consumer.self}/enable`);
    expect(notice?.mail.text).toContain(`${t.url}/admin/webhooks/${consumer.self.split('/').at(-1)}`);
    expect(notice?.mail.text).toContain('HTTP 410');

    // The waiting events are held from the moment it is disabled: their jobs go.
    for (const eventId of waitingIds) expect(await stateOf(t, consumer, eventId)).toBe('held');
    expect(await t.server.ctx.repos.jobs.countPending('webhook')).toBe(0);
    for (const id of waiting) expect(verifiedFor(receiver, id)).toHaveLength(1);
    // An event while disabled is held for it, not attempted.
    const later = await recordTestEvent(t.server, 'contract.rejected', { id: '/api/contracts/900' });
    const held = (await t.api('GET', `${consumer.self}/events/${later}`)).body;
    expect(held).toMatchObject({ state: 'held', attempts: [], next_attempt_time: null });
    // Nothing is sent by hand to a disabled consumer.
    const refused = await t.api('POST', `${consumer.self}/events/${goneIds[0]}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/disabled .*Enable it/);

    // Enabled again: the held events go out; the failed ones stay failed.
    for (const id of [...waiting, ...gone]) replies.set(id, 200);
    const enabled = await t.api('POST', `${consumer.self}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.disabled_time).toBeNull();
    for (const eventId of [...waitingIds, later])
      await expect.poll(() => stateOf(t, consumer, eventId), { timeout: 10_000 }).toBe('delivered');
    for (const id of waiting) expect(verifiedFor(receiver, id)).toHaveLength(2);
    for (const eventId of goneIds) expect(await stateOf(t, consumer, eventId)).toBe('failed');
    expect(verifiedFor(receiver, '/api/contracts/900')).toHaveLength(1);

    // A manual retry sends a failed event again now.
    const retried = await t.api('POST', `${consumer.self}/events/${goneIds[0]}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.state).toBe('pending');
    await expect.poll(() => stateOf(t, consumer, goneIds[0] as number), { timeout: 10_000 }).toBe('delivered');
    expect(verifiedFor(receiver, gone[0] as string)).toHaveLength(2);
    const entry = (await t.api('GET', `${consumer.self}/events/${goneIds[0]}`)).body;
    expect(entry.attempts.map((attempt: { status_code: number }) => attempt.status_code)).toEqual([410, 200]);
    expect(mail.mails).toHaveLength(1);
  });

  it('counts permanent errors in a row only: a 2xx resets the count; the notice goes to the office without contact_email', async () => {
    const mail = await smtp();
    const { t, receiver, register } = await setUp({ webhookRetryScheduleS: [60], smtpUrl: mail.url });
    const partnerKey = (await cli(t.dataDir, ['token', 'create', '--name', 'partner', '--kind', 'partner'])).out.at(
      -1,
    ) as string;
    expect(
      (await t.api('PUT', '/api/partner/customer', { key: partnerKey, body: { email: 'office@office.test' } })).status,
    ).toBe(200);
    let reply: Reply = 410;
    receiver.respond(() => reply);
    const consumer = await register('/strict');
    let n = 0;
    const sendBatch = async (count: number) => {
      const before = receiver.requests.length;
      for (let i = 0; i < count; i += 1)
        await recordTestEvent(t.server, 'contract.signed', { id: `/api/contracts/${(n += 1)}` });
      await expect.poll(() => receiver.requests.length).toBe(before + count);
      await expect.poll(async () => t.server.ctx.repos.jobs.countPending('webhook')).toBe(0);
    };
    await sendBatch(9);
    reply = 204;
    await sendBatch(1);
    reply = 410;
    await sendBatch(9);
    expect((await t.api('GET', consumer.self)).body.disabled_time).toBeNull();
    await sendBatch(1);
    await expect.poll(async () => (await t.api('GET', consumer.self)).body.disabled_time).not.toBeNull();
    const [notice] = await mail.waitForMails(1);
    expect(notice?.envelopeTo).toEqual(['office@office.test']);
  });

  it('sends a delivered event again on a manual retry', async () => {
    const { t, receiver, register } = await setUp({ webhookRetryScheduleS: [60] });
    const consumer = await register('/again');
    const eventId = await recordTestEvent(t.server, 'contract.party_signed', {
      id: '/api/contracts/5',
      party: '/api/contracts/5/parties/8',
    });
    await expect.poll(() => stateOf(t, consumer, eventId)).toBe('delivered');
    const refused = await t.api('POST', `${consumer.self}/events/${eventId}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain('"redeliver": true');
    expect(
      (await t.api('POST', `${consumer.self}/events/${eventId}/retry`, { body: { redeliver: true } })).status,
    ).toBe(200);
    await expect.poll(() => receiver.verified().length).toBe(2);
    await expect.poll(() => stateOf(t, consumer, eventId)).toBe('delivered');
    const [first, second] = receiver.verified();
    expect(second?.body).toEqual(first?.body);
    expect(second?.headers['signature-input']).toMatch(/keyid="ed25519-\d+"/);
    // The same event id on both: the receiver can tell the second is a repeat.
    expect(first?.headers['webhook-id']).toBe(String(eventId));
    expect(second?.headers['webhook-id']).toBe(String(eventId));
    expect((await t.api('POST', `${consumer.self}/events/${eventId + 1000}/retry`)).status).toBe(404);
  });

  it('purges events older than one month, with their attempts, at start', async () => {
    const { t, receiver, register } = await setUp({ webhookRetryScheduleS: [60] });
    const consumer = await register('/log');
    const day = 24 * 60 * 60 * 1000;
    const monthAndDayAgo = (() => {
      const date = new Date();
      date.setUTCMonth(date.getUTCMonth() - 1);
      return date.getTime() - day;
    })();
    const old = await recordTestEvent(
      t.server,
      'contract.signed',
      { id: '/api/contracts/1' },
      { now: () => monthAndDayAgo },
    );
    const recent = await recordTestEvent(
      t.server,
      'contract.signed',
      { id: '/api/contracts/2' },
      { now: () => Date.now() - 27 * day },
    );
    const today = await recordTestEvent(t.server, 'contract.signed', { id: '/api/contracts/3' });
    await expect.poll(() => receiver.verified().length).toBe(3);
    await expect
      .poll(async () => (await eventsOf(t, consumer)).every((event) => event.state === 'delivered'))
      .toBe(true);
    expect((await eventsOf(t, consumer)).map((event) => event.event_id)).toEqual([today, recent, old]);

    // A restart runs the purge (it also runs every hour).
    await t.close();
    const again = await startTestServer({ webhookFirstDelayS: 0 }, t.dataDir);
    cleanups.push(() => again.close());
    const events = await eventsOf(again, consumer);
    expect(events.map((event) => event.event_id)).toEqual([today, recent]);
    expect(events.every((event) => event.attempts.length === 1)).toBe(true);
    const rows = await rawSql(again.server.ctx.db).get(
      'SELECT (SELECT count(*) FROM webhook_events) AS events, (SELECT count(*) FROM webhook_attempts) AS attempts',
    );
    expect(rows).toEqual({ events: 2, attempts: 2 });
    expect((await again.api('GET', `${consumer.self}/events/${old}`)).status).toBe(404);
  });
});
