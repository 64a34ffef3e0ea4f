import http from 'node:http';
import https from 'node:https';
import type { OutboundPolicy } from '../../net/outbound-policy';
import { APP_VERSION } from '../../core/version';

/** A timestamp reply with its certificates is a few KiB; more than this is not a reply. */
export const MAX_REPLY_BYTES = 256 * 1024;

/** Why an authority gave no usable answer: the message says it in words an admin can act on. */
export class TsaUnreachable extends Error {
  override name = 'TsaUnreachable';
}

/**
 * The one outbound connection of timestamps: an RFC 3161 query POSTed to the authority
 * (`application/timestamp-query`, RFC 3161 section 3.4), the reply's bytes returned. One timeout
 * covers the whole exchange, the reply is read up to MAX_REPLY_BYTES, redirects are not followed
 * (a 3xx is a failure), and a user:password in the URL goes as Basic authentication. Every
 * connection goes through the outbound address policy (server/net), checked at connect time.
 */
export function postTimestampQuery(
  tsaUrl: string,
  query: Uint8Array,
  options: { timeoutMs: number; signal?: AbortSignal; policy: OutboundPolicy },
): Promise<Buffer> {
  const url = new URL(tsaUrl);
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
    const req = request(url, {
      method: 'POST',
      agent: options.policy.agentFor(url),
      headers: {
        'content-type': 'application/timestamp-query',
        'content-length': String(query.length),
        accept: 'application/timestamp-reply',
        'user-agent': `SignDesk/${APP_VERSION}`,
      },
    });
    const timer = setTimeout(
      () => settle(new TsaUnreachable(`no answer from the timestamp authority within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    const onAbort = () => settle(new TsaUnreachable('the request was stopped'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();

    req.on('error', (err: NodeJS.ErrnoException) =>
      settle(new TsaUnreachable(`the timestamp authority cannot be reached (${err.code ?? err.message})`)),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        settle(
          new TsaUnreachable(
            `the timestamp authority answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REPLY_BYTES)
          settle(new TsaUnreachable(`the timestamp authority's answer is larger than ${MAX_REPLY_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => settle(undefined, Buffer.concat(chunks)));
      res.on('error', (err) =>
        settle(new TsaUnreachable(`reading the timestamp authority's answer failed: ${err.message}`)),
      );
    });
    req.end(query);
  });
}
