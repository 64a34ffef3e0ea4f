import { createHash } from 'node:crypto';
import type { AppContext } from '../../context/app-context';
import { postTimestampQuery } from './post-timestamp-query';
import { makeTimestampQuery, readTimestampReply, type TimestampToken } from '../../crypto/rfc3161';
import { isClockOff, withoutCredentials } from './tsa-settings';
import { recordClockCheck } from './clock-check';

export type ObtainedTimestamp = TimestampToken & {
  /** The authority's time minus this PC's when the answer came, ms. */
  clockOffsetMs: number;
};

/**
 * Asks the authority to timestamp `data` (its SHA-256): the token, checked against the query.
 * A PC clock more than a minute off the authority's is logged as a warning (the admin UI shows
 * it too, from the seal records).
 */
export async function requestTimestamp(
  ctx: AppContext,
  tsaUrl: string,
  data: Uint8Array | Uint8Array[],
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<ObtainedTimestamp> {
  const hash = createHash('sha256');
  for (const part of Array.isArray(data) ? data : [data]) hash.update(part);
  const digest = hash.digest();
  const query = makeTimestampQuery(digest);
  const reply = await postTimestampQuery(tsaUrl, query.der, { ...options, policy: ctx.outbound });
  const token = readTimestampReply(reply, digest, query.nonce);
  const clockOffsetMs = token.genTime.getTime() - ctx.now();
  await recordClockCheck(ctx, { authorityTime: token.genTime.getTime(), offsetMs: clockOffsetMs });
  if (isClockOff(clockOffsetMs)) {
    ctx.logger.warn(
      {
        tsaUrl: withoutCredentials(tsaUrl),
        authorityTime: token.genTime.toISOString(),
        pcTime: new Date(ctx.now()).toISOString(),
        offsetSeconds: Math.round(clockOffsetMs / 1000),
      },
      "timestamps: this PC's clock differs from the timestamp authority's by more than a minute; set the PC's clock right",
    );
  }
  return { ...token, clockOffsetMs };
}
