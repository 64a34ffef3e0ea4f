import type { AppContext } from '../context/app-context';
import type { JobOutcome } from '../jobs/runner';
import { inTransaction } from '../db/open-database';
import { APPLIANCE_ORIGIN, logActivity } from '../activity/log-activity';
import { planReminders } from './plan-reminders';

export const EXPIRY_QUEUE = 'expiry';

/** Schedules the expiry entry of a contract that was sent with an expire_time (inside the send's transaction). */
export async function scheduleExpiry(ctx: AppContext, contractId: number, expireAt: number): Promise<void> {
  await ctx.repos.jobs.enqueue(EXPIRY_QUEUE, contractId, expireAt, ctx.now());
}

/**
 * When expire_time passes on a sent contract its links close (checked on every request); this
 * job writes the one `contract.expired` activity entry. The status stays `sent`; of the webhooks,
 * only the opt-in `contract.expired` follows (the interface raises none).
 */
export async function expireContract(ctx: AppContext, contractId: number): Promise<JobOutcome> {
  return inTransaction(ctx.db, async () => {
    const contract = await ctx.repos.contracts.findById(contractId);
    if (!contract || contract.status !== 'sent' || contract.expireAt === null || contract.withdrawnAt !== null)
      return { kind: 'done' };
    if (contract.expireAt > ctx.now()) return { kind: 'retry', at: contract.expireAt, error: 'not yet' };
    await logActivity(ctx, { contractId, event: 'contract.expired', ...APPLIANCE_ORIGIN });
    await planReminders(ctx, contractId);
    return { kind: 'done' };
  });
}
