import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSms, waitForOutboxState } from '../helpers/outbox';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSmsGateway, type GatewayRequest, type SmsGateway } from '../helpers/sms-gateway';

const FAST_RETRIES = [0.05, 0.05, 0.05];

/** The gateway's answer depends on the number: a stand-in for an operator's rules. */
function operator(request: GatewayRequest, counts: Map<string, number>) {
  const to = (request.json as { to?: string }).to ?? '';
  const count = (counts.get(to) ?? 0) + 1;
  counts.set(to, count);
  if (to.endsWith('500') && count <= 2) return { status: 500, body: '{"error":"operator busy"}' };
  if (to.endsWith('503')) return { status: 503, body: 'down for maintenance' };
  if (to.endsWith('400')) return { status: 400, body: '{"error":"invalid number"}' };
  return { status: 200, body: `{"id":"msg-${count}"}` };
}

describe('SMS through an HTTP gateway', () => {
  let gateway: SmsGateway;
  let t: TestServer;
  const counts = new Map<string, number>();

  beforeAll(async () => {
    gateway = await startSmsGateway((request) => operator(request, counts));
    t = await startTestServer({ smsGatewayUrl: gateway.url, outboxRetryScheduleS: FAST_RETRIES });
  });
  afterAll(async () => {
    await t.close();
    await gateway.close();
  });

  const requestsTo = (to: string) => gateway.requests.filter((request) => (request.json as { to: string }).to === to);

  it('posts JSON {to, body} with the number and text right', async () => {
    const id = await queueSms(t.server, {
      to: '+46 70-123 45 67',
      body: 'Hej! Skriv under avtalet här: https://sign.example.test/sign/xyz – Kontoret i Växjö',
      partyId: 9,
      contractId: 3,
    });
    const message = await waitForOutboxState(t.api, id, 'sent');
    const [request] = requestsTo('+46701234567');
    expect(request).toBeDefined();
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/sms');
    expect(request!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request!.json).toEqual({
      to: '+46701234567',
      body: 'Hej! Skriv under avtalet här: https://sign.example.test/sign/xyz – Kontoret i Växjö',
    });
    expect(message).toMatchObject({
      channel: 'sms',
      to: '+46701234567',
      subject: null,
      party: '/api/contracts/3/parties/9',
      attempts: 1,
      response: 'HTTP 200: {"id":"msg-1"}',
      recipients: [{ address: '+46701234567', state: 'sent' }],
    });
  });

  it('retries a gateway 500 and sends', async () => {
    const id = await queueSms(t.server, { to: '+46700000500' });
    const message = await waitForOutboxState(t.api, id, 'sent');
    expect(message.attempts).toBe(3);
    expect(requestsTo('+46700000500').length).toBe(3);
  });

  it('fails at once on a gateway 400', async () => {
    const id = await queueSms(t.server, { to: '+46700000400' });
    const message = await waitForOutboxState(t.api, id, 'failed');
    expect(message.attempts).toBe(1);
    expect(message.last_error).toContain('HTTP 400: {"error":"invalid number"}');
    expect(message.recipients).toEqual([
      { address: '+46700000400', state: 'failed', response: 'HTTP 400: {"error":"invalid number"}' },
    ]);
    expect(requestsTo('+46700000400').length).toBe(1);
  });

  it('fails a message the gateway keeps refusing with 503 once the retries run out', async () => {
    const id = await queueSms(t.server, { to: '+46700000503' });
    const message = await waitForOutboxState(t.api, id, 'failed');
    expect(message.attempts).toBe(FAST_RETRIES.length + 1);
    expect(requestsTo('+46700000503').length).toBe(FAST_RETRIES.length + 1);
  });
});

describe('SMS without a gateway', () => {
  it('waits, and goes out once sms_gateway_url is set', async () => {
    const t = await startTestServer({ smsGatewayUrl: undefined });
    const gateway = await startSmsGateway();
    try {
      const id = await queueSms(t.server, { to: '0701234567', body: 'Väntar på en gateway' });
      const waiting = await waitForOutboxState(t.api, id, 'waiting-for-config');
      expect(waiting.attempts).toBe(0);
      expect((await t.api('PUT', '/api/settings/messaging', { body: { sms_gateway_url: gateway.url } })).status).toBe(
        200,
      );
      const [request] = await gateway.waitForRequests(1);
      expect(request!.json).toEqual({ to: '0701234567', body: 'Väntar på en gateway' });
      await waitForOutboxState(t.api, id, 'sent');
    } finally {
      await t.close();
      await gateway.close();
    }
  });

  it('sends a gateway that hangs into the timeout and retries', async () => {
    let isHanging = true;
    const hanging = await import('node:http').then(
      (http) =>
        new Promise<{ url: string; hits: number; close(): void }>((resolve) => {
          const state = { url: '', hits: 0, close: () => {} };
          const server = http.createServer((_req, res) => {
            state.hits += 1;
            if (isHanging) return; // never answers
            res.writeHead(202).end();
          });
          server.listen(0, '127.0.0.1', () => {
            const { port } = server.address() as { port: number };
            state.url = `http://127.0.0.1:${port}/`;
            state.close = () => {
              server.closeAllConnections();
              server.close();
            };
            resolve(state);
          });
        }),
    );
    const t = await startTestServer({
      smsGatewayUrl: hanging.url,
      outboxTimeoutMs: 200,
      outboxRetryScheduleS: Array.from({ length: 10 }, () => 0.05),
    });
    try {
      const id = await queueSms(t.server, { to: '+4670111' });
      await expect
        .poll(async () => (await t.api('GET', `/api/outbox/${id}`)).body.last_error, { timeout: 10_000 })
        .toContain('no answer from the SMS gateway within 200 ms');
      isHanging = false;
      const message = await waitForOutboxState(t.api, id, 'sent');
      expect(message.response).toBe('HTTP 202');
      expect(hanging.hits).toBeGreaterThanOrEqual(2);
    } finally {
      await t.close();
      hanging.close();
    }
  });
});
