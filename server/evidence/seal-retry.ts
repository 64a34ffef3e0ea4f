import type { AppContext } from '../context/app-context';
import type { ContractSealRow } from '../db/repos/contract-seals';
import type { JobOutcome } from '../jobs/runner';
import { RevisionRefused } from './replace-signed-file';
import { withoutCredentials } from './timestamps/tsa-settings';

/** Seconds before the next try of a job that waits on the timestamp authority: TSA_RETRY_SCHEDULE_S, its last delay repeating. */
export function tsaRetryDelayS(ctx: AppContext, attempt: number): number {
  const schedule = ctx.config.tsaRetryScheduleS;
  return schedule[Math.min(attempt, schedule.length) - 1] ?? 3600;
}

/**
 * A seal job (a pending timestamp, validation data) whose authority did not come through: the
 * try is counted on the seal row (`counted` says which of its columns), logged with `message`,
 * and the job comes again after the TSA retry schedule's delay.
 */
export async function retrySealJob(
  ctx: AppContext,
  job: { contractId: number; attempt: number; error: string; message: string },
  counted: (seal: ContractSealRow) => Partial<Omit<ContractSealRow, 'contractId'>>,
): Promise<JobOutcome> {
  const { contractId, attempt, error } = job;
  const delayS = tsaRetryDelayS(ctx, attempt);
  const now = ctx.now();
  const seal = await ctx.repos.seals.find(contractId);
  if (seal) await ctx.repos.seals.update(contractId, { ...counted(seal), updatedAt: now });
  ctx.logger.warn(
    {
      contractId,
      attempt,
      retryInS: delayS,
      err: error,
      tsaUrl: seal?.tsaUrl ? withoutCredentials(seal.tsaUrl) : null,
    },
    job.message,
  );
  return { kind: 'retry', at: now + delayS * 1000, error };
}

/**
 * A seal job whose new revision of the signed PDF the guard refused (replace-signed-file.ts):
 * the signed PDF stays as it is, the cause is kept on the seal row (`counted` says which column)
 * and logged as an error, and the job ends: asking the authority again cannot mend the file.
 * Any other error is thrown on.
 */
export async function refuseSealJob(
  ctx: AppContext,
  contractId: number,
  error: unknown,
  counted: (message: string) => Partial<Omit<ContractSealRow, 'contractId'>>,
): Promise<JobOutcome> {
  if (!(error instanceof RevisionRefused)) throw error;
  await ctx.repos.seals.update(contractId, { ...counted(error.message), updatedAt: ctx.now() });
  ctx.logger.error({ contractId, err: error.message }, 'timestamps: the signed PDF was NOT replaced');
  return { kind: 'failed', error: error.message };
}
