import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createOutboundPolicy } from '../../server/net/outbound-policy';
import { createWebhookClient, postDelivery } from '../../server/webhooks/post-delivery';

/**
 * A receiver that closes a kept-alive connection while it sits idle (a proxy's idle timeout, a
 * restart) makes the next POST on it fail with a reset before a byte is answered. That POST goes
 * again at once on a fresh connection, instead of becoming a failed attempt retried 5 minutes later.
 */
describe('a reset on a reused keep-alive connection', () => {
  const sockets = new Set<Socket>();
  let requestsPerSocket = new Map<Socket, number>();
  const server = http.createServer({ keepAlive: true }, (req, res) => {
    const seen = (requestsPerSocket.get(req.socket) ?? 0) + 1;
    requestsPerSocket.set(req.socket, seen);
    // The second request on a connection finds it closed: reset, nothing answered.
    if (seen > 1) return void req.socket.resetAndDestroy();
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.on('connection', (socket) => sockets.add(socket));
  const client = createWebhookClient(createOutboundPolicy());
  afterAll(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is tried again at once on a fresh connection, and answered', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`);
    requestsPerSocket = new Map();
    const post = () =>
      postDelivery(url, { 'content-type': 'application/json' }, Buffer.from('{"type":"x"}'), 5_000, client);
    const first = await post();
    expect(first).toMatchObject({ statusCode: 200, error: null });
    const second = await post();
    expect(second).toMatchObject({ statusCode: 200, error: null, isTimeout: false });
    // Two connections: the kept-alive one, reset on its second request, and a fresh one.
    expect(sockets.size).toBe(2);
    expect([...requestsPerSocket.values()]).toEqual([2, 1]);
  });
});
