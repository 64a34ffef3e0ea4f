import type { AppContext } from '../../context/app-context';
import { requestTimestamp } from './request-timestamp';
import { withoutCredentials } from './tsa-settings';
import { cmsInGap, embedSignatureTimestamp, lastSignatureGap, signatureValueOf } from './signature-timestamp';

/** Room kept in the seal for the token: a token with its certificate chain is a few KiB. */
export const TIMESTAMP_ROOM = 16 * 1024;
/** How long sealing waits for the authority before marking the timestamp pending. */
const SEAL_TIMEOUT_MS = 10_000;

export type SealTimestamp =
  | { status: 'none' }
  | { status: 'signature'; tsaUrl: string; genTime: Date; clockOffsetMs: number; authority: string }
  | { status: 'pending'; tsaUrl: string; error: string };

/**
 * The seal's signature timestamp (PAdES B-T): the authority stamps the signature value and the
 * token goes into the seal's CMS as an unsigned attribute. When the authority cannot be reached
 * or its answer is wrong, the PDF stays as sealed and the timestamp is pending.
 */
export async function timestampSeal(
  ctx: AppContext,
  sealed: Uint8Array,
  tsaUrl: string,
): Promise<{ bytes: Uint8Array; timestamp: SealTimestamp }> {
  try {
    const signatureValue = signatureValueOf(cmsInGap(sealed, lastSignatureGap(sealed)));
    const token = await requestTimestamp(ctx, tsaUrl, signatureValue, { timeoutMs: SEAL_TIMEOUT_MS });
    const bytes = embedSignatureTimestamp(sealed, token.der);
    return {
      bytes,
      timestamp: {
        status: 'signature',
        tsaUrl,
        genTime: token.genTime,
        clockOffsetMs: token.clockOffsetMs,
        authority: token.signer.subject,
      },
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.logger.warn(
      { tsaUrl: withoutCredentials(tsaUrl), err: message },
      'timestamps: no timestamp at sealing; the contract is signed and its timestamp pending',
    );
    return { bytes: sealed, timestamp: { status: 'pending', tsaUrl, error: message } };
  }
}
