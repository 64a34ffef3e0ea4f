import { describeNetworkError } from '../net/describe-network-error';
import type { ExchangeError, HttpClient } from '../net/http-client';
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

/**
 * The webhooks' client keeps connections alive: most attempts go to a few hosts, and a TLS or
 * TCP handshake per event adds up. Every new connection is checked by the outbound address policy.
 */
export function createWebhookClient(policy: OutboundPolicy): HttpClient {
  return policy.createClient({ keepAlive: true });
}

/** Errors of a kept-alive connection the receiver had already closed: the request never reached it. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
/** Tries on fresh connections after a stale one (each a new socket, unless the pool hands out another stale one). */
const MAX_STALE_RETRIES = 3;

/**
 * POSTs `body` with `headers` and reads at most a bounded part of the answer. Redirects are not
 * followed; the whole exchange is bounded by `timeoutMs`: with no status line by then it is a
 * timeout, with one the answer so far is kept. A kept-alive connection the receiver closed
 * while it sat idle fails at once with a reset; the POST is then sent again at once on a fresh
 * connection (not five minutes later as a failed attempt): nothing of it reached the receiver,
 * and a receiver handles each `Webhook-Id` once anyway.
 */
export async function postDelivery(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  client: HttpClient,
): Promise<PostResult> {
  const started = performance.now();
  for (let retry = 0; ; retry += 1) {
    const left = Math.max(1, timeoutMs - (performance.now() - started));
    const { result, isStaleSocket } = await postOnce(url, headers, body, left, timeoutMs, client);
    if (!isStaleSocket || retry >= MAX_STALE_RETRIES) {
      return { ...result, durationMs: Math.round(performance.now() - started) };
    }
  }
}

async function postOnce(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  statedTimeoutMs: number,
  client: HttpClient,
): Promise<{ result: PostResult; isStaleSocket: boolean }> {
  const started = performance.now();
  const result = (
    statusCode: number | null,
    error: string | null,
    excerpt: Buffer = Buffer.alloc(0),
    isTimeout = false,
  ) => ({
    statusCode,
    error,
    isTimeout,
    // A character cut in two at the excerpt's end is left out.
    responseExcerpt: excerpt.toString('utf8').replace(/\uFFFD+$/, ''),
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const answer = await client.exchange(url, {
      method: 'POST',
      headers,
      body,
      timeoutMs,
      maxBytes: MAX_READ_BYTES,
      keepBytes: EXCERPT_BYTES,
    });
    // A connection closed (or cut off) before the end still gave us a status: that is the answer.
    const error = answer.cut === 'time' ? `answer not finished within ${statedTimeoutMs} ms` : null;
    return { result: result(answer.status, error, answer.body), isStaleSocket: false };
  } catch (caught) {
    const error = caught as ExchangeError;
    if (error.kind === 'timeout')
      return { result: result(null, `no answer within ${statedTimeoutMs} ms`, undefined, true), isStaleSocket: false };
    const isStaleSocket = error.isReusedConnection && STALE_SOCKET_CODES.has(error.code);
    return { result: result(null, describeNetworkError(error)), isStaleSocket };
  }
}
