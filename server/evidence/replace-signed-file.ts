import type { AppContext } from '../context/app-context';

/**
 * The contract's signed PDF becomes `bytes` (a later revision of the file: a document or archive
 * timestamp appended); the file it replaces is let go. Call inside the transaction that records why.
 */
export function replaceSignedFile(
  ctx: AppContext,
  contractId: number,
  oldFileId: number,
  bytes: Buffer,
  now: number,
): void {
  const fileId = ctx.repos.files.putFile(bytes, 'application/pdf', now);
  ctx.repos.contracts.update(contractId, { signedFileId: fileId, updatedAt: now });
  ctx.repos.files.releaseFile(oldFileId);
}

/** Seconds before the next try of a job that waits on the timestamp authority: TSA_RETRY_SCHEDULE_S, its last delay repeating. */
export function tsaRetryDelayS(ctx: AppContext, attempt: number): number {
  const schedule = ctx.config.tsaRetryScheduleS;
  return schedule[Math.min(attempt, schedule.length) - 1] ?? 3600;
}
