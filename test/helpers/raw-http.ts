import http from 'node:http';

export type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * One request with its target sent exactly as given (fetch and URL would resolve `..` and
 * normalise escapes before the server could see them), from `localAddress` if given.
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; localAddress?: string; host?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: options.host ?? '127.0.0.1',
        port,
        method,
        path: target,
        headers: options.headers,
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
