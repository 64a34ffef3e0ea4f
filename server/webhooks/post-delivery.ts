import http from 'node:http';
import https from 'node:https';
import { describeNetworkError } from '../net/describe-network-error';
import type { OutboundPolicy } from '../net/outbound-policy';

/** What came of one POST: an HTTP status, or an error without one. */
export type PostResult = {
  statusCode: number | null;
  error: string | null;
  /** No answer (status line) came within the time allowed. */
  isTimeout: boolean;
  responseExcerpt: string;
  durationMs: number;
};

export const EXCERPT_BYTES = 1024;
/** Answers longer than this are cut off (the socket is dropped rather than drained). */
const MAX_READ_BYTES = 64 * 1024;

export type Agents = { http: http.Agent; https: https.Agent; destroy(): void };

/**
 * Keep-alive agents: most attempts go to a few hosts, and a TLS or TCP handshake per event adds
 * up. Every new connection is checked by the outbound address policy.
 */
export function createAgents(policy: OutboundPolicy): Agents {
  return policy.createAgents({ keepAlive: true, keepAliveMsecs: 10_000, maxFreeSockets: 64, scheduling: 'lifo' });
}

/** Errors of a kept-alive connection the receiver had already closed: the request never reached it. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** Tries on fresh connections after a stale one (each a new socket, unless the pool hands out another stale one). */
const MAX_STALE_RETRIES = 3;

/**
 * POSTs `body` with `headers` and reads at most a bounded part of the answer. Redirects are not
 * followed (http.request never does); the whole exchange is bounded by `timeoutMs`: with no
 * status line by then it is a timeout, with one the answer so far is kept. A kept-alive
 * connection the receiver closed while it sat idle fails at once with a reset; the POST is then
 * sent again at once on a fresh connection (not five minutes later as a failed attempt): nothing
 * of it reached the receiver, and a receiver handles each `Webhook-Id` once anyway.
 */
export async function postDelivery(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  agents: Agents,
): Promise<PostResult> {
  const started = performance.now();
  for (let retry = 0; ; retry += 1) {
    const left = Math.max(1, timeoutMs - (performance.now() - started));
    const { result, isStaleSocket } = await postOnce(url, headers, body, left, timeoutMs, agents);
    if (!isStaleSocket || retry >= MAX_STALE_RETRIES) {
      return { ...result, durationMs: Math.round(performance.now() - started) };
    }
  }
}

function postOnce(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  statedTimeoutMs: number,
  agents: Agents,
): Promise<{ result: PostResult; isStaleSocket: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    let isSettled = false;
    const finish = (error: string | null, isTimeout = false, isStaleSocket = false) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve({
        result: {
          statusCode,
          error,
          isTimeout,
          responseExcerpt: Buffer.concat(chunks)
            .toString('utf8')
            .replace(/\uFFFD+$/, ''),
          durationMs: Math.round(performance.now() - started),
        },
        isStaleSocket,
      });
    };
    const isHttps = url.protocol === 'https:';
    const request = (isHttps ? https : http).request({
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname || '/'}${url.search}`,
      headers,
      agent: isHttps ? agents.https : agents.http,
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish(
        statusCode === null
          ? `no answer within ${statedTimeoutMs} ms`
          : `answer not finished within ${statedTimeoutMs} ms`,
        statusCode === null,
      );
    }, timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => {
      const isStale = request.reusedSocket && statusCode === null && STALE_SOCKET_CODES.has(err.code ?? '');
      finish(describeNetworkError(err), false, isStale);
    });
    request.on('response', (response) => {
      statusCode = response.statusCode ?? null;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (kept < EXCERPT_BYTES) {
          const part = chunk.subarray(0, EXCERPT_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (read > MAX_READ_BYTES) {
          response.destroy();
          finish(null);
        }
      });
      response.on('end', () => finish(null));
      response.on('error', (err) => finish(statusCode === null ? describeNetworkError(err) : null));
      // A connection closed before the end still gave us a status: that is the answer.
      response.on('close', () => finish(null));
    });
    request.end(body);
  });
}
