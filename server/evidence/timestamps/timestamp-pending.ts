import { createHash } from 'node:crypto';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { JobOutcome } from '../../jobs/runner';
import { logTimestamped } from '../record-seal';
import { requestAnchor } from '../anchors/anchor-queue';
import { requestTimestamp, type ObtainedTimestamp } from './request-timestamp';
import { readTsaUrl, withoutCredentials } from './tsa-settings';

/** Room for the document timestamp's token (a token with its certificates is a few KiB). */
const DOCUMENT_TIMESTAMP_ROOM = 16 * 1024;
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The job of a contract whose timestamp is pending: asks the authority (the one in the settings
 * now, else the one asked at sealing) for a document timestamp over the whole signed PDF and
 * appends it as an incremental update, so the sealed bytes stay its exact prefix. From then on
 * `signed_pdf` and the parties' download links serve the timestamped file. While the authority
 * does not answer, the job is tried again on TSA_RETRY_SCHEDULE_S (its last delay repeating).
 */
export async function timestampPendingContract(
  ctx: AppContext,
  contractId: number,
  attempt: number,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const seal = ctx.repos.seals.find(contractId);
  const contract = ctx.repos.contracts.findById(contractId);
  if (!seal || seal.timestampStatus !== 'pending' || !contract?.signedFileId) return { kind: 'done' };
  const tsaUrl = readTsaUrl(ctx).url ?? seal.tsaUrl;
  if (!tsaUrl) return retry(ctx, contractId, attempt, 'no timestamp authority is configured');
  const file = ctx.repos.files.getFile(contract.signedFileId);
  if (!file) return { kind: 'failed', error: 'the signed PDF is missing' };

  let stamped: { bytes: Buffer; token: ObtainedTimestamp };
  try {
    stamped = await stampDocument(ctx, tsaUrl, file.data, DOCUMENT_TIMESTAMP_ROOM, signal);
  } catch (error) {
    return retry(ctx, contractId, attempt, error instanceof Error ? error.message : String(error));
  }
  const { token } = stamped;

  const now = ctx.now();
  inTransaction(ctx.db, () => {
    const current = ctx.repos.seals.find(contractId);
    const latest = ctx.repos.contracts.findById(contractId);
    // Only the file this job stamped is replaced (a restore or another run may have moved on).
    if (current?.timestampStatus !== 'pending' || latest?.signedFileId !== file.id) return;
    const fileId = ctx.repos.files.putFile(stamped.bytes, 'application/pdf', now);
    ctx.repos.contracts.update(contractId, { signedFileId: fileId, updatedAt: now });
    ctx.repos.files.releaseFile(file.id);
    ctx.repos.seals.update(contractId, {
      timestampStatus: 'document',
      tsaUrl: withoutCredentials(tsaUrl),
      timestampTime: token.genTime.getTime(),
      clockOffsetMs: token.clockOffsetMs,
      timestampAttempts: current.timestampAttempts + 1,
      timestampError: null,
      updatedAt: now,
    });
    logTimestamped(ctx, contractId, {
      kind: 'document',
      tsaUrl,
      authority: token.signer.subject,
      genTime: token.genTime,
      clockOffsetMs: token.clockOffsetMs,
    });
    requestAnchor(ctx, now);
  });
  ctx.logger.info(
    { contractId, sha256: createHash('sha256').update(stamped.bytes).digest('hex') },
    'timestamps: document timestamp appended',
  );
  return { kind: 'done' };
}

/**
 * The PDF with a document timestamp appended: its place prepared in the sandbox (the PDF is
 * parsed there), the token asked for the digest of its byte range and written in. A token
 * larger than the room kept is asked for again with room to spare.
 */
async function stampDocument(
  ctx: AppContext,
  tsaUrl: string,
  pdf: Uint8Array,
  room: number,
  signal: AbortSignal,
): Promise<{ bytes: Buffer; token: ObtainedTimestamp }> {
  const prepared = await ctx.pdf.run('prepare-document-timestamp', {
    bytes: pdf,
    fieldName: documentTimestampFieldName(new Date(ctx.now())),
    room,
  });
  const bytes = Buffer.from(prepared.bytes.buffer, prepared.bytes.byteOffset, prepared.bytes.byteLength);
  const token = await requestTimestamp(ctx, tsaUrl, [bytes.subarray(0, prepared.start), bytes.subarray(prepared.end)], {
    timeoutMs: REQUEST_TIMEOUT_MS,
    signal,
  });
  if (token.der.length > room) {
    if (room > DOCUMENT_TIMESTAMP_ROOM)
      throw new Error(`the authority's token (${token.der.length} bytes) does not fit the room kept`);
    return stampDocument(ctx, tsaUrl, pdf, token.der.length + 4096, signal);
  }
  bytes.write(token.der.toString('hex').toUpperCase(), prepared.start + 1, 'latin1');
  return { bytes, token };
}

/** A field name without a period (ISO 32000-1 12.7.3.2). */
export function documentTimestampFieldName(time: Date): string {
  return `SignDesk timestamp ${time.toISOString().replace(/\.\d+Z$/, 'Z')}`;
}

function retry(ctx: AppContext, contractId: number, attempt: number, error: string): JobOutcome {
  const schedule = ctx.config.tsaRetryScheduleS;
  const delayS = schedule[Math.min(attempt, schedule.length) - 1] ?? 3600;
  const now = ctx.now();
  const seal = ctx.repos.seals.find(contractId);
  if (seal)
    ctx.repos.seals.update(contractId, {
      timestampAttempts: seal.timestampAttempts + 1,
      timestampError: error,
      updatedAt: now,
    });
  ctx.logger.warn(
    {
      contractId,
      attempt,
      retryInS: delayS,
      err: error,
      tsaUrl: seal?.tsaUrl ? withoutCredentials(seal.tsaUrl) : null,
    },
    'timestamps: still pending',
  );
  return { kind: 'retry', at: now + delayS * 1000, error };
}
