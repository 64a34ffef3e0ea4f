import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { OutboxMessageRow } from '../db/repos/outbox';
import { markPartyEmailStatus } from '../db/repos/party-email-status';
import type { AttemptResult } from './attempt-result';
import { planAfterAttempt, type AttemptPlan } from './plan-attempt';

/**
 * Writes an attempt's outcome and the party's email_status facts in one transaction, so a
 * party is never marked sent for a message the outbox still shows as sending.
 */
export async function recordAttempt(
  ctx: AppContext,
  row: OutboxMessageRow,
  result: AttemptResult,
  scheduleS: readonly number[],
): Promise<AttemptPlan> {
  return inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const plan = planAfterAttempt(row, result, scheduleS, now);
    await ctx.repos.outbox.recordAttempt(row.id, plan.record, now);
    if (row.partyId !== null && Object.keys(plan.partyFlags).length > 0) {
      await markPartyEmailStatus(ctx, row.partyId, plan.partyFlags);
    }
    return plan;
  });
}
