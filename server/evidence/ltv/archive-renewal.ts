import type { ReadContext } from '../../context/read-context';
import type { TArchiveRenewal } from '../../../shared/api/archive-renewal';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { JobOutcome } from '../../jobs/runner';
import { queueLtv } from './extend-ltv';

export const ARCHIVE_RENEWAL_QUEUE = 'archive-renewal';
/** An archive timestamp is renewed this long before its authority's certificate expires. */
export const RENEW_BEFORE_DAYS = 365;
/** A contract is renewed at most this often (an authority whose certificate has less than a year left would otherwise be asked daily). */
const RENEW_AT_MOST_EVERY_DAYS = 30;
const DAY_MS = 86_400_000;
const RUN_KEY = 'timestamps.archive_renewal';

type RenewalRun = { startedAt: number; reason: 'scheduled' | 'admin'; total: number };

/**
 * Archive renewal (docs/decisions.md, "Long-term validation"): every timestamped contract whose
 * newest archive timestamp rests on an authority certificate that expires within
 * RENEW_BEFORE_DAYS (or that has none yet) is put in line for fresh validation data and a new
 * archive timestamp over everything before it; the LTV job does the work, one contract at a
 * time, retried while the authority or a CA does not answer. `admin` renews every timestamped
 * contract at once (an algorithm or authority the office no longer trusts).
 */
export async function startArchiveRenewal(ctx: AppContext, reason: 'scheduled' | 'admin'): Promise<RenewalRun> {
  const now = ctx.now();
  return inTransaction(ctx.db, async () => {
    const due = await ctx.repos.seals.archivable(
      reason === 'admin'
        ? undefined
        : { expiringBefore: now + RENEW_BEFORE_DAYS * DAY_MS, renewedBefore: now - RENEW_AT_MOST_EVERY_DAYS * DAY_MS },
    );
    for (const contractId of due) await queueLtv(ctx, contractId, now);
    const run: RenewalRun = { startedAt: now, reason, total: due.length };
    // A scheduled check that finds nothing leaves the last run on show.
    if (due.length > 0 || reason === 'admin') await ctx.repos.settings.write(RUN_KEY, JSON.stringify(run), now);
    return run;
  });
}

/** The daily check, as a recurring job of the durable queue. */
export async function runArchiveRenewalCheck(ctx: AppContext): Promise<JobOutcome> {
  const run = await startArchiveRenewal(ctx, 'scheduled');
  if (run.total > 0)
    ctx.logger.info({ contracts: run.total }, 'timestamps: archive timestamps due for renewal put in line');
  return { kind: 'again', at: ctx.now() + DAY_MS };
}

/** Plans the daily check when none is planned (at start-up). */
export async function planArchiveRenewalCheck(ctx: AppContext): Promise<void> {
  // In a transaction: instances starting together look one after another (one job, not one each).
  await inTransaction(ctx.db, async () => {
    if (!(await ctx.repos.jobs.exists(ARCHIVE_RENEWAL_QUEUE, 0)))
      await ctx.repos.jobs.enqueue(ARCHIVE_RENEWAL_QUEUE, 0, ctx.now(), ctx.now());
  });
}

export async function presentArchiveRenewal(ctx: ReadContext): Promise<TArchiveRenewal> {
  const saved = await ctx.repos.settings.get(RUN_KEY);
  const run = saved ? (JSON.parse(saved) as RenewalRun) : undefined;
  const progress = await ctx.repos.seals.renewalProgress(run?.startedAt ?? 0);
  return {
    renew_before_days: RENEW_BEFORE_DAYS,
    started_time: ctx.timestampOrNull(run?.startedAt),
    reason: run?.reason ?? null,
    total: run?.total ?? 0,
    renewed: run ? Math.min(progress.renewed, run.total) : 0,
    pending: progress.pending,
    errors: progress.errors.map((item) => ({ contract: `/api/contracts/${item.contractId}`, error: item.error })),
    next_check_time: ctx.timestampOrNull(await ctx.repos.jobs.plannedAt(ARCHIVE_RENEWAL_QUEUE, 0)),
  };
}
