import { createHash } from 'node:crypto';
import { checkRevision, replaceSignedFile, type CheckedRevision } from '../replace-signed-file';
import { refuseSealJob, retrySealJob } from '../seal-retry';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { JobOutcome } from '../../jobs/runner';
import { queueLtv } from '../ltv/extend-ltv';
import { logTimestamped } from '../record-seal';
import { requestAnchor } from '../anchors/anchor-queue';
import type { ObtainedTimestamp } from './request-timestamp';
import { stampDocument } from './stamp-document';
import { readTsaUrl, withoutCredentials } from './tsa-settings';

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
  const seal = await ctx.repos.seals.find(contractId);
  const contract = await ctx.repos.contracts.findById(contractId);
  if (!seal || seal.timestampStatus !== 'pending' || !contract?.signedFileId) return { kind: 'done' };
  const tsaUrl = (await readTsaUrl(ctx)).url ?? seal.tsaUrl;
  if (!tsaUrl) return retry(ctx, contractId, attempt, 'no timestamp authority is configured');
  const file = await ctx.repos.files.getFile(contract.signedFileId);
  if (!file) return { kind: 'failed', error: 'the signed PDF is missing' };

  let stamped: { bytes: Buffer; token: ObtainedTimestamp };
  try {
    stamped = await stampDocument(ctx, tsaUrl, file.data, { signal });
  } catch (error) {
    return retry(ctx, contractId, attempt, error instanceof Error ? error.message : String(error));
  }
  // The same guard as the archive timestamp's (extend-ltv.ts): the stamped file must still be the sealed one.
  let revision: CheckedRevision;
  try {
    revision = await checkRevision(ctx, seal, stamped.bytes);
  } catch (error) {
    return refuseSealJob(ctx, contractId, error, (message) => ({ timestampError: message }));
  }
  const { token } = stamped;

  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const current = await ctx.repos.seals.find(contractId);
    const latest = await ctx.repos.contracts.findById(contractId);
    // Only the file this job stamped is replaced (a restore or another run may have moved on).
    if (current?.timestampStatus !== 'pending' || latest?.signedFileId !== file.id) return;
    await replaceSignedFile(ctx, contractId, file.id, revision, now);
    await ctx.repos.seals.update(contractId, {
      timestampStatus: 'document',
      tsaUrl: withoutCredentials(tsaUrl),
      timestampTime: token.genTime.getTime(),
      clockOffsetMs: token.clockOffsetMs,
      timestampAttempts: current.timestampAttempts + 1,
      timestampError: null,
      updatedAt: now,
    });
    await logTimestamped(ctx, contractId, {
      kind: 'document',
      tsaUrl,
      authority: token.signer.subject,
      genTime: token.genTime,
      clockOffsetMs: token.clockOffsetMs,
    });
    await requestAnchor(ctx, now);
    await queueLtv(ctx, contractId, now);
  });
  ctx.logger.info(
    { contractId, sha256: createHash('sha256').update(stamped.bytes).digest('hex') },
    'timestamps: document timestamp appended',
  );
  return { kind: 'done' };
}

async function retry(ctx: AppContext, contractId: number, attempt: number, error: string): Promise<JobOutcome> {
  return retrySealJob(ctx, { contractId, attempt, error, message: 'timestamps: still pending' }, (seal) => ({
    timestampAttempts: seal.timestampAttempts + 1,
    timestampError: error,
  }));
}
