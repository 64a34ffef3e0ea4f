import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from '../context/app-context';
import { answerChallenge } from '../context/acme-runtime';
import { guardInternetListener } from './listener-guard';

export type AcmeHttpListener = { port: number; close(): Promise<void> };

/**
 * The plain-HTTP listener of ACME_HTTP_PORT (80 from the internet) on PUBLIC_HOST: it answers
 * the CA's HTTP-01 requests for the tokens of an order under way (ctx.reach.challenges; 404 for
 * any other token) and sends everything else to the party surface's address with a permanent redirect. It serves nothing of the office, sets no
 * cookie and reads no body.
 */
export async function startAcmeHttpListener(ctx: AppContext, host: string): Promise<AcmeHttpListener> {
  const timeouts = { requestTimeout: 10_000, headersTimeout: 10_000, connectionsCheckingInterval: 1_000 };
  const server = http.createServer(timeouts, (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0] as string;
    const isRead = req.method === 'GET' || req.method === 'HEAD';
    if (isRead && pathname.startsWith('/.well-known/acme-challenge/')) {
      const answer = answerChallenge(ctx.reach.challenges, pathname);
      res.writeHead(answer === undefined ? 404 : 200, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
      });
      res.end(answer ?? 'Not found');
      return;
    }
    // The configured address, never the request's Host header, and only a path after it (not
    // `//elsewhere`): no redirect to wherever a client names.
    const path = /^\/(?![/\\])/.test(req.url ?? '') ? (req.url as string) : '/';
    const target = `${ctx.partyBaseUrl().replace(/\/+$/, '')}${path}`;
    res.writeHead(isRead ? 301 : 308, { location: target, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`Moved to ${target}`);
  });
  // Port 80 faces the internet as the party listener does: its own caps on connections.
  guardInternetListener(ctx, server, 'ACME HTTP-01 listener');
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.config.acme.httpPort, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  ctx.acme.challengePort = port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
