import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type GatewayRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
};
export type GatewayAnswer = { status: number; body?: string };

export type SmsGateway = {
  url: string;
  requests: GatewayRequest[];
  waitForRequests(count: number, timeoutMs?: number): Promise<GatewayRequest[]>;
  close(): Promise<void>;
};

/**
 * A real HTTP server standing in for the SMS operator's gateway (the one thing that cannot
 * exist here). `answer` decides each response from the request and its 1-based number.
 */
export async function startSmsGateway(
  answer: (request: GatewayRequest, index: number) => GatewayAnswer = () => ({ status: 200, body: '{"id":"sms-1"}' }),
): Promise<SmsGateway> {
  const requests: GatewayRequest[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json };
      requests.push(request);
      const reply = answer(request, requests.length);
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body ?? '');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sms`,
    requests,
    waitForRequests(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} SMS requests, got ${requests.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
