import { basicAuthOf, type Answer, type ExchangeError } from './http-client';
import type { OutboundPolicy } from './outbound-policy';

/** One exchange that gave no usable answer: the message says why in words an admin can act on. */
export class HttpExchangeError extends Error {
  override name = 'HttpExchangeError';
}

/**
 * A bounded GET or POST through the outbound address policy: one timeout for the whole
 * exchange, the body read up to `maxBytes`, no redirect followed (a 3xx is a failure), only
 * 200 accepted, over the one client (net/http-client.ts). For small machine-to-machine answers
 * (a time stamp, a CRL, an OCSP response, a certificate).
 */
export async function httpExchange(
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
    throw new HttpExchangeError(`${url.protocol} addresses are not fetched`);
  const refusal = policy.checkUrl(target);
  if (refusal) throw new HttpExchangeError(refusal);
  // A password in the URL's user part goes as Basic authentication (a TSA's account), as http.request sent it.
  const headers: Record<string, string> = { 'user-agent': options.userAgent, ...basicAuthOf(url) };
  if (options.accept) headers.accept = options.accept;
  if (options.body) headers['content-type'] = options.contentType ?? 'application/octet-stream';
  let answer: Answer;
  try {
    answer = await policy.http.exchange(url, {
      method: options.method,
      headers,
      ...(options.body ? { body: options.body } : {}),
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      signal: options.signal,
    });
  } catch (error) {
    const { kind, code, message } = error as ExchangeError;
    if (kind === 'timeout') throw new HttpExchangeError(`no answer within ${options.timeoutMs} ms`);
    if (kind === 'stopped') throw new HttpExchangeError('the request was stopped');
    throw new HttpExchangeError(`cannot be reached (${code ?? message})`);
  }
  const { status, cut } = answer;
  if (status !== 200)
    throw new HttpExchangeError(
      `answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
    );
  if (cut === 'size') throw new HttpExchangeError(`answered more than ${options.maxBytes} bytes`);
  if (cut === 'time') throw new HttpExchangeError(`no answer within ${options.timeoutMs} ms`);
  if (cut === 'stopped') throw new HttpExchangeError('the request was stopped');
  if (cut === 'failed') throw new HttpExchangeError(`reading the answer failed: ${answer.error?.message}`);
  return answer.body;
}
