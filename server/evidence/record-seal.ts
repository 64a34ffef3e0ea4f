import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context';
import { lastSignatureGap } from './timestamps/signature-timestamp';
import { queueLtv } from './ltv/extend-ltv';
import { TIMESTAMP_QUEUE } from './timestamps/timestamp-queue';
import { requestAnchor } from './anchors/anchor-queue';
import { withoutCredentials } from './timestamps/tsa-settings';
import { APPLIANCE_ORIGIN, logActivity } from '../activity/log-activity';
import type { SealTimestamp } from './timestamps/timestamp-seal';

/** A sealed contract's bytes and what its seal record keeps of them. */
export type SealedContract = {
  bytes: Uint8Array;
  /** The chain head printed in the audit trail: the entry `contract.signed` will be when written. */
  chainHead: { sequence: number; hash: string };
  timestamp: SealTimestamp;
  /** SHA-256 (hex) of the certificate that sealed it. */
  certificateSha256: string;
};

/**
 * Records a fresh seal in the signing transaction: its hash (the verify page finds the contract
 * by it), the chain head its audit trail prints, and its timestamp: in the seal, or pending
 * with a job that appends a document timestamp once the authority answers.
 */
export async function recordSeal(
  ctx: AppContext,
  contractId: number,
  sealed: SealedContract,
  now: number,
): Promise<void> {
  const { timestamp } = sealed;
  await ctx.repos.seals.insert({
    contractId,
    sealedSha256: createHash('sha256').update(sealed.bytes).digest('hex'),
    sealedSize: sealed.bytes.length,
    sealedContentSha256: signedContentSha256(sealed.bytes),
    sealCertificateSha256: sealed.certificateSha256,
    chainHeadSequence: sealed.chainHead.sequence,
    chainHeadHash: sealed.chainHead.hash,
    timestampStatus: timestamp.status,
    tsaUrl: timestamp.status === 'none' ? null : withoutCredentials(timestamp.tsaUrl),
    timestampTime: timestamp.status === 'signature' ? timestamp.genTime.getTime() : null,
    clockOffsetMs: timestamp.status === 'signature' ? timestamp.clockOffsetMs : null,
    timestampAttempts: timestamp.status === 'none' ? 0 : 1,
    timestampError: timestamp.status === 'pending' ? timestamp.error : null,
    createdAt: now,
    updatedAt: now,
  });
  if (timestamp.status === 'signature') {
    await logTimestamped(ctx, contractId, {
      kind: 'signature',
      tsaUrl: timestamp.tsaUrl,
      authority: timestamp.authority,
      genTime: timestamp.genTime,
      clockOffsetMs: timestamp.clockOffsetMs,
    });
    await queueLtv(ctx, contractId, now);
  } else if (timestamp.status === 'pending') {
    await logActivity(ctx, {
      contractId,
      event: 'contract.timestamp_pending',
      details: { authority: withoutCredentials(timestamp.tsaUrl), error: timestamp.error },
      ...APPLIANCE_ORIGIN,
    });
    await ctx.repos.jobs.enqueue(
      TIMESTAMP_QUEUE,
      contractId,
      now + (ctx.config.tsaRetryScheduleS[0] ?? 30) * 1000,
      now,
    );
  }
  // The office anchor after each seal: the sealed chain gets its outside proof at once.
  await requestAnchor(ctx, now);
}

/** SHA-256 of what the seal (the file's last signature) signs: its byte range. */
function signedContentSha256(pdf: Uint8Array): string {
  const [, b, c, d] = lastSignatureGap(pdf).byteRange;
  return createHash('sha256')
    .update(pdf.subarray(0, b))
    .update(pdf.subarray(c, c + d))
    .digest('hex');
}

/** The `contract.timestamped` entry (and an anchor over it): which kind, from whom, the authority's time and how far this PC's clock was off. */
export async function logTimestamped(
  ctx: AppContext,
  contractId: number,
  stamp: {
    kind: 'signature' | 'document' | 'archive';
    tsaUrl: string;
    authority: string;
    genTime: Date;
    clockOffsetMs: number;
    /** What the validation data under an archive timestamp lacks, in words. */
    revocation?: string;
  },
): Promise<void> {
  await logActivity(ctx, {
    contractId,
    event: 'contract.timestamped',
    details: {
      kind: stamp.kind,
      authority: `${stamp.authority.replaceAll('\n', ', ')} (${withoutCredentials(stamp.tsaUrl)})`,
      authority_time: ctx.timestamp(stamp.genTime.getTime()),
      clock_offset_s: Math.round(stamp.clockOffsetMs / 1000),
      ...(stamp.revocation ? { revocation: stamp.revocation } : {}),
    },
    ...APPLIANCE_ORIGIN,
  });
  // The entry is proven only by the next anchor: ask for one now (an archive timestamp too).
  await requestAnchor(ctx, ctx.now());
}
