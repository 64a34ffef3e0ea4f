import type { AppContext } from '../../context/app-context';
import { tsaRetryDelayS } from '../seal-retry';
import { inTransaction } from '../../db/open-database';
import type { FoldedHead } from '../../db/repos/office-evidence';
import type { JobOutcome } from '../../jobs/runner';
import { OFFICE_CHAIN } from '../../activity/office-log';
import { requestTimestamp } from '../timestamps/request-timestamp';
import { readTsaUrl, withoutCredentials } from '../timestamps/tsa-settings';
import { ANCHOR_GENESIS, canonicalAnchor, hashAnchor, headsRootOf, type AnchorFields } from './anchor-form';
import { ANCHOR_INTERVAL_MS, isAnchorQueued } from './anchor-queue';

const REQUEST_TIMEOUT_MS = 20_000;

type Planned = AnchorFields & { activityIdThrough: number; officeLogIdThrough: number; heads: FoldedHead[] };

/**
 * What the next anchor folds, read in one snapshot: the head of every contract chain with an
 * entry after the previous anchor's, and the office log's head if it moved.
 */
async function planAnchor(ctx: AppContext, now: number): Promise<Planned> {
  const repo = ctx.repos.officeEvidence;
  return inTransaction(ctx.db, async () => {
    const previous = await repo.latestAnchor();
    const activityIdThrough = await repo.maxActivityId();
    const heads: FoldedHead[] = (
      await repo.changedContractHeads(previous?.activityIdThrough ?? 0, activityIdThrough)
    ).map((head) => ({ chain: `/api/contracts/${head.contractId}`, sequence: head.sequence, hash: head.hash }));
    const office = await repo.officeHead();
    const officeLogIdThrough = office?.id ?? 0;
    if (office && officeLogIdThrough > (previous?.officeLogIdThrough ?? 0))
      heads.push({ chain: OFFICE_CHAIN, sequence: office.sequence, hash: office.hash });
    return {
      sequence: (previous?.sequence ?? 0) + 1,
      createdAt: now,
      headsRoot: headsRootOf(heads),
      headCount: heads.length,
      previousHash: previous?.hash ?? ANCHOR_GENESIS,
      activityIdThrough,
      officeLogIdThrough,
      heads,
    };
  });
}

/**
 * The anchor queue's job: folds the changed chain heads into the next office anchor and has
 * the authority timestamp its hash. Nothing is written until the token is there, so the chain
 * never holds an anchor without its outside proof; while the authority does not answer, the job
 * is tried again on TSA_RETRY_SCHEDULE_S. Then it comes back a day later (or sooner, asked by a seal).
 */
export async function makeAnchor(ctx: AppContext, attempt: number, signal: AbortSignal): Promise<JobOutcome> {
  const tsaUrl = (await readTsaUrl(ctx)).url;
  const now = ctx.now();
  // Without an authority there is nothing outside to anchor to; saving one asks again.
  if (!tsaUrl) return { kind: 'again', at: now + ANCHOR_INTERVAL_MS };
  const latest = await ctx.repos.officeEvidence.latestAnchor();
  const planned = await planAnchor(ctx, now);
  const isDue = !latest || latest.createdAt + ANCHOR_INTERVAL_MS <= now;
  if (planned.headCount === 0 && !isDue) return next(ctx, latest!.createdAt + ANCHOR_INTERVAL_MS);

  let token: Awaited<ReturnType<typeof requestTimestamp>>;
  try {
    token = await requestTimestamp(ctx, tsaUrl, Buffer.from(canonicalAnchor(planned), 'utf8'), {
      timeoutMs: REQUEST_TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const delayS = tsaRetryDelayS(ctx, attempt);
    ctx.logger.warn(
      { attempt, retryInS: delayS, err: message, tsaUrl: withoutCredentials(tsaUrl) },
      'office anchor: the timestamp authority did not answer; trying again',
    );
    return { kind: 'retry', at: ctx.now() + delayS * 1000, error: message };
  }
  const hash = hashAnchor(planned);
  const written = await inTransaction(ctx.db, async () => {
    // Another process may have anchored meanwhile: this plan then no longer follows the latest.
    if ((await ctx.repos.officeEvidence.latestAnchor())?.sequence !== (latest?.sequence ?? undefined)) return false;
    // An entry that took its time before the reading but came in after it would be dated before an
    // anchor that does not hold it, as a backdated one is (issue 39): read the heads again.
    if (
      await ctx.repos.officeEvidence.hasLateEntry(
        planned.activityIdThrough,
        planned.officeLogIdThrough,
        planned.createdAt,
      )
    )
      return false;
    await ctx.repos.officeEvidence.insertAnchor(
      {
        sequence: planned.sequence,
        createdAt: planned.createdAt,
        activityIdThrough: planned.activityIdThrough,
        officeLogIdThrough: planned.officeLogIdThrough,
        headsRoot: planned.headsRoot,
        headCount: planned.headCount,
        previousHash: planned.previousHash,
        hash,
        token: token.der,
        tokenTime: token.genTime.getTime(),
        tsaUrl: withoutCredentials(tsaUrl),
        clockOffsetMs: token.clockOffsetMs,
      },
      planned.heads,
    );
    return true;
  });
  if (!written)
    return {
      kind: 'retry',
      at: ctx.now(),
      error: 'another anchor, or an entry dated before its reading, came meanwhile',
    };
  ctx.logger.info(
    { anchor: planned.sequence, heads: planned.headCount, hash, authorityTime: token.genTime.toISOString() },
    'office anchor timestamped',
  );
  return next(ctx, ctx.now() + ANCHOR_INTERVAL_MS);
}

/** Again at `at`, unless a seal has queued another run meanwhile (that one then carries on). */
const next = async (ctx: AppContext, at: number): Promise<JobOutcome> =>
  (await isAnchorQueued(ctx)) ? { kind: 'done' } : { kind: 'again', at };
