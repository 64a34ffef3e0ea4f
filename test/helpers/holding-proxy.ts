import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain HTTP proxy in front of a server that holds back the answers to some requests (a slow
 * link, made deterministic): the request reaches the proxy and keeps its connection open, as a
 * download in progress does, until `release()`. It tells which held requests the browser gave up
 * on (closed the connection) before their answer came.
 */
export type HoldingProxy = {
  url: string;
  /** Paths held now, in the order they came. */
  held(): string[];
  /** Paths the browser abandoned while they were held. */
  abandoned(): string[];
  /** Paths that reached the proxy, in order (held or not). */
  seen(): string[];
  release(): void;
  close(): Promise<void>;
};

export async function startHoldingProxy(target: string, shouldHold: (path: string) => boolean): Promise<HoldingProxy> {
  const origin = new URL(target);
  const waiting: Array<{ path: string; go: () => void }> = [];
  const abandoned: string[] = [];
  const seen: string[] = [];
  let isReleased = false;
  const forward = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const upstream = http.request(
      { host: origin.hostname, port: origin.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push(path);
    if (isReleased || !shouldHold(path)) return forward(req, res);
    const entry = { path, go: () => forward(req, res) };
    waiting.push(entry);
    res.on('close', () => {
      const index = waiting.indexOf(entry);
      if (index === -1 || res.writableFinished) return;
      waiting.splice(index, 1);
      abandoned.push(path);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => waiting.map((entry) => entry.path),
    abandoned: () => [...abandoned],
    seen: () => [...seen],
    release: () => {
      isReleased = true;
      for (const entry of waiting.splice(0)) entry.go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
