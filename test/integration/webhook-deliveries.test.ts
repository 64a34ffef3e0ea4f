import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/open-database';
import { recordEvent } from '../../server/webhooks/record-event';
import { startTestServer, type TestServer } from '../helpers/server';
import { refusedPort, startWebhookReceiver, type Reply, type WebhookReceiver } from '../helpers/webhook-receiver';
import { recordTestEvent } from '../helpers/webhooks';
import { rawSql } from '../../server/db/raw-sql';

const TIMEOUT_MS = 600;
const RETRY_AFTER_S = 60;

describe('webhook deliveries', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  const replies = new Map<string, Reply>();
  let contractId = 0;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.respond((request) => replies.get(request.path.split('?')[0] as string) ?? 200);
    t = await startTestServer({
      webhookFirstDelayS: 0,
      webhookTimeoutMs: TIMEOUT_MS,
      webhookRetryScheduleS: [RETRY_AFTER_S],
    });
  });
  afterEach(async () => {
    // Each test's consumers would otherwise receive the next test's events.
    const list = await t.api('GET', '/api/webhooks?per_page=100');
    for (const consumer of list.body) await t.api('DELETE', consumer.self);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** Registers a consumer at `url` and hands its key to the receiver, as an integrator would. */
  const register = async (url: string) => {
    const consumer = (await t.api('POST', '/api/webhooks', { body: { url } })).body;
    receiver.trust(consumer.key_id, consumer.public_key);
    return consumer as { self: string; key_id: string; public_key: string };
  };

  /** Waits until the event's delivery has `attempts` attempts, and returns its log entry. */
  const settled = async (consumer: { self: string }, eventId: number, attempts = 1) => {
    let entry: any;
    await expect
      .poll(
        async () => {
          entry = (await t.api('GET', `${consumer.self}/events/${eventId}`)).body;
          return entry.attempts?.length ?? 0;
        },
        { timeout: 10_000 },
      )
      .toBeGreaterThanOrEqual(attempts);
    return entry;
  };

  const sendTo = async (path: string, reply: Reply) => {
    replies.set(path, reply);
    const consumer = await register(`${receiver.url}${path}`);
    contractId += 1;
    const eventId = await recordTestEvent(t.server, 'contract.signed', { id: `/api/contracts/${contractId}` });
    const entry = await settled(consumer, eventId);
    const requests = receiver.requests.filter((request) => request.path === path);
    expect(requests.every((request) => request.isVerified)).toBe(true);
    return { consumer, eventId, entry, requests };
  };

  it('delivers a signed POST that an independent RFC 9421 receiver verifies, and logs the 200', async () => {
    const consumer = await register(`${receiver.url}/ok?tenant=7`);
    const eventId = await recordTestEvent(t.server, 'contract.party_signed', {
      id: '/api/contracts/12',
      party: '/api/contracts/12/parties/3',
    });
    const entry = await settled(consumer, eventId);
    const [request] = receiver.requests.filter((r) => r.path === '/ok?tenant=7');
    expect(request?.isVerified).toBe(true);
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.signature).toMatch(/^sig1=:/);
    expect(request?.headers['signature-input']).toMatch(
      new RegExp(
        `^sig1=\\("@method" "@path" "host" "date" "content-digest"\\);keyid="${consumer.key_id}";alg="ed25519";created=(\\d+);expires=(\\d+)$`,
      ),
    );
    const [, created, expires] = /created=(\d+);expires=(\d+)/.exec(String(request?.headers['signature-input'])) ?? [];
    expect(Number(expires) - Number(created)).toBe(300);
    expect(Object.keys(request?.json)).toEqual(['type', 'timestamp', 'data']);
    expect(request?.json).toMatchObject({
      type: 'contract.party_signed',
      data: { id: '/api/contracts/12', party: '/api/contracts/12/parties/3' },
    });
    expect(request?.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(entry).toMatchObject({
      self: `${consumer.self}/events/${eventId}`,
      event_id: eventId,
      type: 'contract.party_signed',
      timestamp: request?.json.timestamp,
      data: { id: '/api/contracts/12', party: '/api/contracts/12/parties/3' },
      state: 'delivered',
      next_attempt_time: null,
    });
    expect(entry.attempts).toEqual([
      {
        time: expect.stringMatching(/^\d{4}-/),
        status_code: 200,
        error: null,
        duration_ms: expect.any(Number),
        response_excerpt: 'ok',
        outcome: 'delivered',
      },
    ]);
  });

  it('records events only inside the transaction of their cause: a rollback sends nothing', async () => {
    const consumer = await register(`${receiver.url}/tx`);
    const { ctx } = t.server;
    await expect(recordEvent(ctx, 'contract.signed', { id: '/api/contracts/800' })).rejects.toThrow(
      /inside the transaction/,
    );
    await expect(
      inTransaction(ctx.db, async () => {
        await recordEvent(ctx, 'contract.signed', { id: '/api/contracts/801' });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    const kept = await recordTestEvent(t.server, 'contract.signed', { id: '/api/contracts/802' });
    await settled(consumer, kept);
    const list = await t.api('GET', `${consumer.self}/events`);
    expect(list.body.map((event: { event_id: number }) => event.event_id)).toEqual([kept]);
    expect(
      receiver
        .verified()
        .filter((request) => request.path === '/tx')
        .map((request) => request.json.data.id),
    ).toEqual(['/api/contracts/802']);
  });

  it('takes any 2xx as handled', async () => {
    const { entry, requests } = await sendTo('/no-content', 204);
    expect(requests.every((request) => request.isVerified)).toBe(true);
    expect(entry.state).toBe('delivered');
    expect(entry.attempts[0]).toMatchObject({ status_code: 204, outcome: 'delivered' });
    expect((await sendTo('/accepted', 202)).entry.state).toBe('delivered');
  });

  for (const status of [429, 500, 400, 404]) {
    it(`retries a ${status} on the schedule`, async () => {
      const before = Date.now();
      const { entry, requests } = await sendTo(`/status-${status}`, { status, body: `answer ${status}` });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.isVerified).toBe(true);
      expect(entry.state).toBe('pending');
      expect(entry.attempts[0]).toMatchObject({
        status_code: status,
        outcome: 'retry',
        response_excerpt: `answer ${status}`,
      });
      // Next attempt one schedule step (60 s here, give or take its jitter of a tenth) after this one.
      const next = Date.parse(`${entry.next_attempt_time.replace(' ', 'T')}Z`);
      const attempted = Date.parse(`${entry.attempts[0].time.replace(' ', 'T')}Z`);
      expect(next - attempted).toBeGreaterThanOrEqual(RETRY_AFTER_S * 0.9 * 1000 - 1000);
      expect(next - attempted).toBeLessThanOrEqual(RETRY_AFTER_S * 1.1 * 1000 + 1000);
      expect(Date.now() - before).toBeLessThan(RETRY_AFTER_S * 1000);
    });
  }

  it('treats 410 as permanent: failed at once, never retried', async () => {
    const { entry, requests } = await sendTo('/gone', 410);
    expect(requests).toHaveLength(1);
    expect(entry.state).toBe('failed');
    expect(entry.attempts).toHaveLength(1);
    expect(entry.attempts[0]).toMatchObject({ status_code: 410, outcome: 'permanent' });
    expect(await t.server.ctx.repos.jobs.countPending('webhook')).toBe(0);
  });

  it('does not follow a redirect: a 301 is a permanent error', async () => {
    const { entry, requests } = await sendTo('/moved', {
      status: 301,
      headers: { location: `${receiver.url}/moved-here` },
    });
    expect(requests).toHaveLength(1);
    expect(receiver.requests.filter((request) => request.path === '/moved-here')).toHaveLength(0);
    expect(entry).toMatchObject({ state: 'failed', next_attempt_time: null });
    expect(entry.attempts[0]).toMatchObject({ status_code: 301, outcome: 'permanent' });
  });

  it('gives up on a receiver that never answers: a permanent error after the timeout', async () => {
    const { entry, requests } = await sendTo('/silent', 'hang');
    expect(requests).toHaveLength(1);
    expect(entry.state).toBe('failed');
    expect(entry.attempts[0]).toMatchObject({
      status_code: null,
      outcome: 'permanent',
      error: `no answer within ${TIMEOUT_MS} ms`,
    });
    expect(entry.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(entry.attempts[0].duration_ms).toBeLessThan(TIMEOUT_MS + 1_000);
  });

  it('retries when the connection is refused or dropped', async () => {
    const consumer = await register(`http://127.0.0.1:${await refusedPort()}/hook`);
    const eventId = await recordTestEvent(t.server, 'contract.rejected', { id: '/api/contracts/99' });
    const entry = await settled(consumer, eventId);
    expect(entry.state).toBe('pending');
    expect(entry.attempts[0]).toMatchObject({ status_code: null, outcome: 'retry' });
    expect(entry.attempts[0].error).toMatch(/ECONNREFUSED/);

    const dropped = await sendTo('/drop', 'reset');
    // A reset on a kept-alive connection is tried once more at once on a fresh one, in the same attempt.
    expect(dropped.requests.length).toBeGreaterThanOrEqual(1);
    expect(dropped.requests.length).toBeLessThanOrEqual(2);
    expect(dropped.entry.attempts).toHaveLength(1);
    expect(dropped.entry.state).toBe('pending');
    expect(dropped.entry.attempts[0]).toMatchObject({ status_code: null, outcome: 'retry' });
  });

  it('copes with a consumer deleted while its delivery is in flight, without holding up the others', async () => {
    const held = new Map<string, () => void>();
    receiver.respond((request) =>
      request.path.startsWith('/held')
        ? new Promise((resolve) => held.set(request.path, () => resolve(200)))
        : (replies.get(request.path) ?? 200),
    );
    const doomed = await register(`${receiver.url}/held-doomed`);
    const survivor = await register(`${receiver.url}/held-survivor`);
    const eventId = await recordTestEvent(t.server, 'contract.signed', { id: '/api/contracts/700' });
    await expect.poll(() => held.size).toBe(2);
    expect((await t.api('DELETE', doomed.self)).status).toBe(204);
    // The deleted consumer's answer comes first; the survivor's lands in the same batch or the next.
    held.get('/held-doomed')?.();
    setImmediate(() => held.get('/held-survivor')?.());
    // A batch that failed on the vanished delivery would hold the survivor's result back until
    // its claim expired (timeout + 5 s), and send it twice.
    await expect
      .poll(async () => (await t.api('GET', `${survivor.self}/events/${eventId}`)).body.state, { timeout: 3_000 })
      .toBe('delivered');
    expect(receiver.requests.filter((request) => request.path === '/held-survivor')).toHaveLength(1);
    expect(
      await rawSql(t.server.ctx.db).get(
        'SELECT count(*) AS n FROM webhook_deliveries WHERE consumer_id = ?',
        Number(doomed.self.split('/').at(-1)),
      ),
    ).toEqual({ n: 0 });
    receiver.respond((request) => replies.get(request.path.split('?')[0] as string) ?? 200);
  });

  it('keeps only the first KiB of a long answer', async () => {
    const { entry } = await sendTo('/chatty', { status: 200, body: 'é'.repeat(3_000) });
    expect(entry.state).toBe('delivered');
    expect(Buffer.byteLength(entry.attempts[0].response_excerpt)).toBeLessThanOrEqual(1024);
    expect(entry.attempts[0].response_excerpt).toBe('é'.repeat(512));
  });

  it('is told 400 by the receiver when the signature cannot be verified, and retries', async () => {
    // The receiver holds a wrong key for this consumer: its verification must fail, and does.
    const consumer = (await t.api('POST', '/api/webhooks', { body: { url: `${receiver.url}/wrong-key` } })).body;
    const impostor = (await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/unused' } })).body;
    receiver.trust(consumer.key_id, impostor.public_key);
    const eventId = await recordTestEvent(t.server, 'contract.signed', { id: '/api/contracts/500' });
    const entry = await settled(consumer, eventId);
    const [request] = receiver.requests.filter((r) => r.path === '/wrong-key');
    expect(request?.isVerified).toBe(false);
    expect(request?.verifyError).toMatch(/does not verify/);
    expect(entry.attempts[0]).toMatchObject({ status_code: 400, outcome: 'retry' });
    expect(entry.attempts[0].response_excerpt).toMatch(/^signature validation failed/);
  });

  it('is refused by the receiver when a delivered request is replayed with a tampered body', async () => {
    const { requests } = await sendTo('/original', 200);
    const original = requests[0];
    expect(original?.isVerified).toBe(true);
    const replay = (body: Buffer, headers: http.OutgoingHttpHeaders) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request(
          `${receiver.url}/original`,
          { method: 'POST', headers: { ...headers, 'content-length': body.length } },
          (response) => {
            let text = '';
            response.on('data', (chunk) => (text += chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    const headers = { ...original?.headers } as http.OutgoingHttpHeaders;
    expect((await replay(original?.body as Buffer, headers)).status).toBe(200);
    const tampered = Buffer.from((original?.body as Buffer).toString().replace('/api/contracts/', '/api/contracts/9'));
    const answer = await replay(tampered, headers);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/Content-Digest does not match/);
  });
});
