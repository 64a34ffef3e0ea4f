import { httpExchange, HttpExchangeError } from '../../net/http-exchange';
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
 * (`application/timestamp-query`, RFC 3161 section 3.4), the reply's bytes returned, through the
 * bounded exchange every fetch of evidence uses (server/net/http-exchange.ts): one timeout, the
 * reply read up to MAX_REPLY_BYTES, no redirect followed, the outbound address policy. A
 * user:password in the URL goes as Basic authentication (Node reads it from the URL).
 */
export async function postTimestampQuery(
  tsaUrl: string,
  query: Uint8Array,
  options: { timeoutMs: number; signal?: AbortSignal; policy: OutboundPolicy },
): Promise<Buffer> {
  try {
    return await httpExchange(options.policy, tsaUrl, {
      method: 'POST',
      body: query,
      contentType: 'application/timestamp-query',
      accept: 'application/timestamp-reply',
      userAgent: `SignDesk/${APP_VERSION}`,
      timeoutMs: options.timeoutMs,
      maxBytes: MAX_REPLY_BYTES,
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof HttpExchangeError) throw new TsaUnreachable(`the timestamp authority: ${error.message}`);
    throw error;
  }
}
