import http from 'node:http';
import https from 'node:https';
import type { AttemptResult, RecipientOutcome } from '../attempt-result';
import { excerpt, resultForAll } from '../attempt-result';
import { describeNetworkError } from '../../net/describe-network-error';
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
 * answer is read only up to a few KiB.
 */
export function postSms(
  gatewayUrl: string,
  sms: Sms,
  options: { timeoutMs: number; signal: AbortSignal; policy: OutboundPolicy },
): Promise<AttemptResult> {
  const url = new URL(gatewayUrl);
  const payload = Buffer.from(JSON.stringify({ to: sms.to, body: sms.body }));
  const request = url.protocol === 'https:' ? https.request : http.request;
  const started = Date.now();

  return new Promise<AttemptResult>((resolve) => {
    let isSettled = false;
    const settle = (result: AttemptResult) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const fail = (message: string) => settle(resultForAll([sms.to], 'deferred', excerpt(message)));

    const req = request(url, {
      method: 'POST',
      agent: options.policy.agentFor(url),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(payload.length),
        accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
        'user-agent': `SignDesk/${APP_VERSION}`,
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      fail(`no answer from the SMS gateway within ${options.timeoutMs} ms`);
    }, options.timeoutMs);
    const onAbort = () => {
      req.destroy();
      fail('the attempt was stopped');
    };
    options.signal.addEventListener('abort', onAbort, { once: true });

    req.on('error', (err: NodeJS.ErrnoException) => fail(describeNetworkError(err)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        const status = res.statusCode ?? 0;
        const body = Buffer.concat(chunks).toString('utf8');
        const response = excerpt(`HTTP ${status}${body.trim() ? `: ${body}` : ''}`);
        const outcome = outcomeOfStatus(status);
        res.destroy();
        settle({
          recipients: [{ address: sms.to, outcome, response }],
          response,
          messageId: null,
          error: outcome === 'accepted' ? null : `${response} (after ${Date.now() - started} ms)`,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (size >= MAX_RESPONSE_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
        size += chunk.length;
        if (size >= MAX_RESPONSE_BYTES) finish();
      });
      res.on('end', finish);
      res.on('error', (err) => fail(`reading the answer failed: ${describeNetworkError(err)}`));
    });
    req.end(payload);
  });
}
