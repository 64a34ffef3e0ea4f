import type { AttemptResult, RecipientOutcome } from '../attempt-result';
import { excerpt, resultForAll } from '../attempt-result';
import { describeNetworkError } from '../../net/describe-network-error';
import { basicAuthOf, type Answer, type ExchangeError } from '../../net/http-client';
import type { OutboundPolicy } from '../../net/outbound-policy';
import { APP_VERSION } from '../../core/version';

/** More of a gateway's answer than we keep is never read. */
const MAX_RESPONSE_BYTES = 4_096;

export type Sms = { to: string; body: string };

/**
 * 2xx delivered; 429 and 5xx the gateway's trouble, tried again; any other answer (3xx: we
 * follow no redirects; 4xx: the gateway refuses this SMS) is final.
 */
function outcomeOfStatus(status: number): RecipientOutcome {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 429 || status >= 500) return 'deferred';
  return 'rejected-permanent';
}

/**
 * One SMS to the HTTP gateway of decisions.md: POST of JSON `{to, body}`. A password in the
 * URL's user part is sent as Basic authentication. The whole exchange has one timeout and the
 * answer is read only up to a few KiB (net/http-client.ts); a signal already aborted sends nothing.
 */
export async function postSms(
  gatewayUrl: string,
  sms: Sms,
  options: { timeoutMs: number; signal: AbortSignal; policy: OutboundPolicy },
): Promise<AttemptResult> {
  const url = new URL(gatewayUrl);
  const payload = Buffer.from(JSON.stringify({ to: sms.to, body: sms.body }));
  const started = Date.now();
  const fail = (message: string) => resultForAll([sms.to], 'deferred', excerpt(message));
  let answer: Answer;
  try {
    answer = await options.policy.http.exchange(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
        'user-agent': `SignDesk/${APP_VERSION}`,
        ...basicAuthOf(url),
      },
      body: payload,
      timeoutMs: options.timeoutMs,
      // The answer is read only up to a few KiB: past them the connection is dropped, the start kept.
      maxBytes: MAX_RESPONSE_BYTES,
      signal: options.signal,
    });
  } catch (caught) {
    const error = caught as ExchangeError;
    if (error.kind === 'timeout') return fail(`no answer from the SMS gateway within ${options.timeoutMs} ms`);
    if (error.kind === 'stopped') return fail('the attempt was stopped');
    return fail(describeNetworkError(error));
  }
  if (answer.cut === 'time') return fail(`no answer from the SMS gateway within ${options.timeoutMs} ms`);
  if (answer.cut === 'stopped') return fail('the attempt was stopped');
  if (answer.cut === 'failed') return fail(`reading the answer failed: ${describeNetworkError(answer.error)}`);
  const { status } = answer;
  const body = answer.body.toString('utf8');
  const response = excerpt(`HTTP ${status}${body.trim() ? `: ${body}` : ''}`);
  const outcome = outcomeOfStatus(status);
  return {
    recipients: [{ address: sms.to, outcome, response }],
    response,
    messageId: null,
    error: outcome === 'accepted' ? null : `${response} (after ${Date.now() - started} ms)`,
  };
}
