import type { AppContext } from '../context/app-context';
import type { ContractSealRow } from '../db/repos/contract-seals';
import type { JobOutcome } from '../jobs/runner';
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
