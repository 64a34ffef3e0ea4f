import http from 'node:http';
import https from 'node:https';
import type { OutboundPolicy } from './outbound-policy';

/** One exchange that gave no usable answer: the message says why in words an admin can act on. */
export class HttpExchangeError extends Error {
  override name = 'HttpExchangeError';
}

/**
 * A bounded GET or POST through the outbound address policy: one timeout for the whole
 * exchange, the body read up to `maxBytes`, no redirect followed (a 3xx is a failure), only
 * 200 accepted. For small machine-to-machine answers (a CRL, an OCSP response, a certificate).
 */
export function httpExchange(
  policy: OutboundPolicy,
  target: string,
  options: {
    method: 'GET' | 'POST';
    body?: Uint8Array;
    contentType?: string;
    accept?: string;
    userAgent: string;
    timeoutMs: number;
    maxBytes: number;
    signal?: AbortSignal | undefined;
  },
): Promise<Buffer> {
  const url = new URL(target);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new HttpExchangeError(`${url.protocol} addresses are not fetched`));
  const refusal = policy.checkUrl(target);
  if (refusal) return Promise.reject(new HttpExchangeError(refusal));
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<Buffer>((resolve, reject) => {
    let isSettled = false;
    const settle = (error: Error | undefined, reply?: Buffer) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    const headers: Record<string, string> = { 'user-agent': options.userAgent };
    if (options.accept) headers.accept = options.accept;
    if (options.body) {
      headers['content-type'] = options.contentType ?? 'application/octet-stream';
      headers['content-length'] = String(options.body.length);
    }
    const req = request(url, { method: options.method, agent: policy.agentFor(url), headers });
    const timer = setTimeout(
      () => settle(new HttpExchangeError(`no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () => settle(new HttpExchangeError('the request was stopped'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    req.on('error', (err: NodeJS.ErrnoException) =>
      settle(new HttpExchangeError(`cannot be reached (${err.code ?? err.message})`)),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        settle(
          new HttpExchangeError(
            `answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) settle(new HttpExchangeError(`answered more than ${options.maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => settle(undefined, Buffer.concat(chunks)));
      res.on('error', (err) => settle(new HttpExchangeError(`reading the answer failed: ${err.message}`)));
    });
    req.end(options.body);
  });
}
