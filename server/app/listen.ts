import type http from 'node:http';
import type { AddressInfo } from 'node:net';

const SHUTDOWN_GRACE_MS = 5_000;

export type RunningListener = {
  port: number;
  close(): Promise<void>;
};

/**
 * Starts `server` on port and host, and gives it a graceful close: responses still being made
 * when shutdown begins close their connection after they are sent, so a keep-alive client does
 * not hold the shutdown until the grace period ends.
 */
export async function listen(server: http.Server, port: number, host: string): Promise<RunningListener> {
  const unanswered = new Set<http.ServerResponse>();
  // One listener function for every response: no closure made per request.
  function forgetResponse(this: http.ServerResponse): void {
    unanswered.delete(this);
  }
  server.on('request', (_req, res: http.ServerResponse) => {
    unanswered.add(res);
    res.on('close', forgetResponse);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(grace);
    })();
    return closing;
  };
  return { port: (server.address() as AddressInfo).port, close };
}
