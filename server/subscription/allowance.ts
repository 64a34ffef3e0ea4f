import { endDateState } from '../../shared/plan-rules';
import type { AppContext } from '../context/app-context';
import type { ReadContext } from '../context/read-context';
import { AppError } from '../core/errors';
import { partnerContactText, readPartnerContact } from './partner-contact';
import { usageMonth } from './plan-month';
import { readSubscription, type Subscription } from './subscription-record';

/**
 * Where the plan's limits bite (docs/decisions.md, "Subscription"): the office's own requests
 * that send a contract, queue SMS by hand or give a user a seat. Each check runs inside the
 * transaction of the change it guards, so a refusal (403 `plan-limit`) changes nothing, and two
 * requests cannot both take the last one. A party's signing is never checked here.
 */

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

async function planLimit(ctx: ReadContext, detail: string): Promise<AppError> {
  const contact = partnerContactText(await readPartnerContact(ctx));
  return new AppError('plan-limit', contact ? `${detail} Ask ${contact} about the plan.` : detail);
}

/** After the plan's end date nothing more is sent; what was sent before goes on being signed. */
async function checkEndDate(ctx: ReadContext, plan: Subscription, today: string): Promise<void> {
  if (plan.end_date === null || !endDateState(plan.end_date, today).isEnded) return;
  throw await planLimit(
    ctx,
    `The office's plan ended on ${plan.end_date} (end_date): no contract can be sent until the plan is extended. Contracts already sent can still be signed, sealed and downloaded.`,
  );
}

/** Before the costly part of a send (sealing with auto_sign): refused at once when it would be refused anyway. */
export async function assertMaySend(ctx: ReadContext): Promise<void> {
  const plan = await readSubscription(ctx);
  const month = usageMonth(ctx, ctx.now());
  await checkEndDate(ctx, plan, month.today);
  if (plan.contracts_per_month === null) return;
  const used = await ctx.repos.usage.monthCount('sent', month.month);
  if (used >= plan.contracts_per_month) throw await contractsProblem(ctx, plan.contracts_per_month, used, month);
}

async function contractsProblem(
  ctx: ReadContext,
  allowed: number,
  used: number,
  month: ReturnType<typeof usageMonth>,
): Promise<AppError> {
  return planLimit(
    ctx,
    `The office's plan allows ${plural(allowed, 'contract', 'contracts')} sent a month (contracts_per_month), and ${plural(used, 'was', 'were')} sent in ${month.month}. The allowance resets at ${ctx.timestamp(month.turnsAt)}.`,
  );
}

/**
 * Counts one contract sent this month, inside the send's transaction; refused when the plan has
 * ended or the month's contracts are used up. Every send counts, limited or not (the usage).
 */
export async function countContractSent(ctx: AppContext): Promise<void> {
  const plan = await readSubscription(ctx);
  const month = usageMonth(ctx, ctx.now());
  await checkEndDate(ctx, plan, month.today);
  if (plan.contracts_per_month !== null) {
    const used = await ctx.repos.usage.monthCount('sent', month.month);
    if (used >= plan.contracts_per_month) throw await contractsProblem(ctx, plan.contracts_per_month, used, month);
  }
  await ctx.repos.usage.add('sent', month.month);
}

/**
 * Runs `work` (the office's own request that queues SMS: a send's invitations, a reminder by
 * hand) and refuses it when what it queued would pass the month's SMS. Each SMS is counted where
 * it is queued (messages/sms/enqueue-sms.ts), whoever queues it; only these requests are held to
 * the allowance. Inside the caller's transaction, so the refusal takes back all `work` wrote.
 */
export async function withinSmsAllowance<T>(ctx: AppContext, work: () => Promise<T>): Promise<T> {
  if (!ctx.db.isInTransaction()) throw new Error('withinSmsAllowance runs inside the transaction of its work');
  const plan = await readSubscription(ctx);
  if (plan.sms_per_month === null) return work();
  const month = usageMonth(ctx, ctx.now());
  const before = await ctx.repos.usage.monthCount('sms', month.month);
  const result = await work();
  const queued = (await ctx.repos.usage.monthCount('sms', month.month)) - before;
  if (queued > 0 && before + queued > plan.sms_per_month) {
    throw await planLimit(
      ctx,
      `The office's plan allows ${plural(plan.sms_per_month, 'SMS', 'SMS')} a month (sms_per_month), ${plural(before, 'was', 'were')} sent in ${month.month}, and this would send ${queued} more. The allowance resets at ${ctx.timestamp(month.turnsAt)}.`,
    );
  }
  return result;
}

/** A user made active (created, or activated again) takes a seat; refused when every seat is taken. */
export async function assertSeatFree(ctx: AppContext): Promise<void> {
  if (!ctx.db.isInTransaction()) throw new Error('assertSeatFree runs inside the transaction of the activation');
  const plan = await readSubscription(ctx);
  if (plan.seats === null) return;
  const used = await ctx.repos.usage.activeUsers();
  if (used < plan.seats) return;
  throw await planLimit(
    ctx,
    `The office's plan has ${plural(plan.seats, 'seat', 'seats')} (seats), and ${plural(used, 'user is', 'users are')} active. A seat is freed when a user is deactivated or deleted, or the plan gets more seats.`,
  );
}
