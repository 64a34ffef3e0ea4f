import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postSms } from '../../server/messages/sms/post-sms';
import { createOutboundPolicy } from '../../server/net/outbound-policy';

/**
 * The one outbound client (server/net/http-client.ts) against a real server: what every caller
 * relies on, the signal, the size limit and the deadline, held in one place.
 */
describe('the outbound HTTP client', () => {
  let hits = 0;
  let base = '';
  const server = http.createServer((req, res) => {
    hits += 1;
    req.resume();
    if (req.url === '/big') {
      // More than any caller reads: a megabyte, written as fast as the socket takes it.
      res.write(Buffer.alloc(1024 * 1024, 'a'));
      return void res.end();
    }
    if (req.url === '/silent') return; // never answers
    res.end('ok');
  });
  const policy = createOutboundPolicy();
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends nothing for a signal already aborted, in the client and for an SMS (post-sms ignored it)', async () => {
    const before = hits;
    const signal = AbortSignal.abort();
    const error = await policy.http
      .exchange(new URL(`${base}/`), { method: 'POST', body: Buffer.from('x'), timeoutMs: 5_000, maxBytes: 10, signal })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'stopped', stage: 'connect' });
    const sms = await postSms(`${base}/sms`, { to: '+46700000000', body: 'hi' }, { timeoutMs: 5_000, signal, policy });
    expect(sms.recipients[0]?.outcome).toBe('deferred');
    expect(sms.error).toBe('the attempt was stopped');
    // Give a request that went out anyway time to arrive: a reply from the server proves the order.
    await policy.http.exchange(new URL(`${base}/`), { method: 'GET', timeoutMs: 5_000, maxBytes: 10 });
    expect(hits - before).toBe(1);
  });

  it('reads an answer up to maxBytes, keeps keepBytes of it, and says it was cut', async () => {
    const answer = await policy.http.exchange(new URL(`${base}/big`), {
      method: 'GET',
      timeoutMs: 5_000,
      maxBytes: 64 * 1024,
      keepBytes: 1024,
    });
    expect(answer).toMatchObject({ status: 200, cut: 'size' });
    expect(answer.body.length).toBe(1024);
  });

  it('ends an exchange without an answer at its deadline, as a timeout', async () => {
    const started = performance.now();
    const error = await policy.http
      .exchange(new URL(`${base}/silent`), { method: 'GET', timeoutMs: 300, maxBytes: 10 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'timeout', code: 'ETIMEDOUT', stage: 'answer' });
    // Not undici's own timers (minutes): the exchange's deadline.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
