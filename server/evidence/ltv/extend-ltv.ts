import { createHash } from 'node:crypto';
import { checkRevision, replaceSignedFile, type CheckedRevision } from '../replace-signed-file';
import { refuseSealJob, retrySealJob } from '../seal-retry';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { JobOutcome } from '../../jobs/runner';
import { logTimestamped } from '../record-seal';
import { stampDocument } from '../timestamps/stamp-document';
import { readTsaUrl } from '../timestamps/tsa-settings';
import { gatherValidationData, type GatheredValidationData } from './gather-validation-data';
import { LTV_QUEUE } from './ltv-queue';

/**
 * The job that takes a timestamped contract to PAdES B-LTA: the certificates of the seal's chain
 * and of every timestamp authority's chain in the signed PDF, their revocation data (OCSP and
 * CRLs, fetched now), written into the DSS with a /VRI entry per signature, and a document
 * timestamp over it all (the archive timestamp), in one incremental update that the structural
 * rule must pass before the file replaces the signed PDF. The same job renews the archive
 * timestamp (archive-renewal.ts queues it): the newest timestamp's chain gets its revocation
 * data and a new timestamp covers it. While anything cannot be had, it is tried again on
 * TSA_RETRY_SCHEDULE_S and the contract shows `ltv_status: pending` with the cause; what cannot
 * be had at all (a certificate that publishes no revocation source) is stated, not waited for.
 */
export async function extendContractLtv(
  ctx: AppContext,
  contractId: number,
  attempt: number,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const seal = await ctx.repos.seals.find(contractId);
  const contract = await ctx.repos.contracts.findById(contractId);
  if (!seal || seal.ltvStatus !== 'pending' || !contract?.signedFileId) return { kind: 'done' };
  if (seal.timestampStatus === 'pending')
    return retry(ctx, contractId, attempt, 'the first timestamp is still pending');
  const tsaUrl = (await readTsaUrl(ctx)).url ?? seal.tsaUrl;
  if (!tsaUrl) return retry(ctx, contractId, attempt, 'no timestamp authority is configured');
  const file = await ctx.repos.files.getFile(contract.signedFileId);
  if (!file) return { kind: 'failed', error: 'the signed PDF is missing' };

  let stamped: Awaited<ReturnType<typeof stampDocument>>;
  let gathered: GatheredValidationData;
  try {
    const inspected = await ctx.pdf.run('inspect-signatures', { bytes: file.data });
    gathered = await gatherValidationData(ctx, inspected, { isRenewal: seal.archiveTime !== null, signal });
    stamped = await stampDocument(ctx, tsaUrl, file.data, { signal, dss: gathered.dss });
  } catch (error) {
    return retry(ctx, contractId, attempt, error instanceof Error ? error.message : String(error));
  }
  let revision: CheckedRevision;
  try {
    revision = await checkRevision(ctx, seal, stamped.bytes);
  } catch (error) {
    return refuseSealJob(ctx, contractId, error, (message) => ({ ltvError: message }));
  }

  const { token } = stamped;
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const current = await ctx.repos.seals.find(contractId);
    const latest = await ctx.repos.contracts.findById(contractId);
    if (current?.ltvStatus !== 'pending' || latest?.signedFileId !== file.id) return;
    await replaceSignedFile(ctx, contractId, file.id, revision, now);
    await ctx.repos.seals.update(contractId, {
      ltvStatus: 'done',
      ltvAttempts: current.ltvAttempts + 1,
      // Once done, the column keeps what the validation data lacks (the API's ltv_note).
      ltvError: gathered.notes.length > 0 ? gathered.notes.join('; ') : null,
      archiveTime: token.genTime.getTime(),
      archiveExpiresAt: Date.parse(token.signer.validTo),
      updatedAt: now,
    });
    await logTimestamped(ctx, contractId, {
      kind: 'archive',
      tsaUrl,
      authority: token.signer.subject,
      genTime: token.genTime,
      clockOffsetMs: token.clockOffsetMs,
      ...(gathered.notes.length > 0 ? { revocation: gathered.notes.join('; ') } : {}),
    });
  });
  ctx.logger.info(
    { contractId, notes: gathered.notes, sha256: createHash('sha256').update(stamped.bytes).digest('hex') },
    'timestamps: validation data and an archive timestamp appended (PAdES B-LTA)',
  );
  return { kind: 'done' };
}

/** Puts a signed contract in line for validation data and an archive timestamp (call in the transaction that makes it due). */
export async function queueLtv(ctx: AppContext, contractId: number, at: number): Promise<void> {
  await ctx.repos.seals.update(contractId, { ltvStatus: 'pending', ltvError: null, updatedAt: ctx.now() });
  await ctx.repos.jobs.plan(LTV_QUEUE, contractId, at, ctx.now());
}

async function retry(ctx: AppContext, contractId: number, attempt: number, error: string): Promise<JobOutcome> {
  return retrySealJob(
    ctx,
    { contractId, attempt, error, message: 'timestamps: validation data or archive timestamp still pending' },
    (seal) => ({ ltvAttempts: seal.ltvAttempts + 1, ltvError: error }),
  );
}
