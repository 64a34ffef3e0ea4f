import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/database';

export const ANCHOR_QUEUE = 'anchor';
/** The queue's one job refers to the office, not to a row. */
export const ANCHOR_JOB_REF = 1;
/** An anchor is made at least this often, changes or not. */
export const ANCHOR_INTERVAL_MS = 24 * 60 * 60_000;

/**
 * Asks for an anchor now (after a seal, a timestamp, a changed authority): brings the queued
 * anchor job forward, or queues one. Call it in the transaction of the change.
 */
export async function requestAnchor(ctx: AppContext, now: number): Promise<void> {
  await ctx.repos.jobs.runBy(ANCHOR_QUEUE, ANCHOR_JOB_REF, now, now);
}

/** Whether an anchor job other than a running one is waiting. */
export async function isAnchorQueued(ctx: AppContext): Promise<boolean> {
  return (await ctx.repos.jobs.plannedAt(ANCHOR_QUEUE, ANCHOR_JOB_REF)) !== undefined;
}

/**
 * At start: an anchor job at once unless one waits already (an office whose last anchor is older
 * than a day, the PC was off, gets one now). In a transaction, so that instances of one
 * PostgreSQL starting together look one after another (the write lock): one job, not one each.
 */
export async function planAnchorAtStart(ctx: AppContext): Promise<void> {
  await inTransaction(ctx.db, async () => {
    if ((await ctx.repos.jobs.nextDueAt(ANCHOR_QUEUE)) !== undefined) return;
    const now = ctx.now();
    await ctx.repos.jobs.enqueue(ANCHOR_QUEUE, ANCHOR_JOB_REF, now, now);
  });
}
