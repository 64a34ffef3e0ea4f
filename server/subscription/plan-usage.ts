import type { PlanLimit, TPlanWarning, TSubscriptionUsage } from '../../shared/api/subscription';
import { endDateState, isNearLimit } from '../../shared/plan-rules';
import type { ReadContext } from '../context/read-context';
import { usageMonth } from './plan-month';
import { readSubscription } from './subscription-record';

/**
 * This month's use of the plan (GET /api/partner/subscription/usage, the admin UI, the CLI):
 * contracts sent and SMS queued in the office's calendar month, the users active now, and what
 * the office is warned of: a limit at 80 % of its use or past it, an end date within 14 days.
 */
export async function readPlanUsage(ctx: ReadContext): Promise<TSubscriptionUsage> {
  const plan = await readSubscription(ctx);
  const month = usageMonth(ctx, ctx.now());
  const used: Record<PlanLimit, number> = {
    seats: await ctx.repos.usage.activeUsers(),
    contracts_per_month: await ctx.repos.usage.monthCount('sent', month.month),
    sms_per_month: await ctx.repos.usage.monthCount('sms', month.month),
  };
  const warnings: TPlanWarning[] = [];
  for (const check of ['seats', 'contracts_per_month', 'sms_per_month'] as const) {
    const allowed = plan[check];
    if (!isNearLimit(used[check], allowed)) continue;
    const isReached = allowed !== null && used[check] >= allowed;
    warnings.push({ check, used: used[check], allowed, end_date: null, days_left: null, is_reached: isReached });
  }
  const end = endDateState(plan.end_date, month.today);
  if (plan.end_date !== null && end.isNear) {
    warnings.push({
      check: 'end_date',
      used: null,
      allowed: null,
      end_date: plan.end_date,
      days_left: end.daysLeft,
      is_reached: end.isEnded,
    });
  }
  return {
    self: '/api/partner/subscription/usage',
    plan_name: plan.plan_name,
    month: month.month,
    month_start_time: ctx.timestamp(month.startsAt),
    month_turns_time: ctx.timestamp(month.turnsAt),
    contracts_sent: { used: used.contracts_per_month, allowed: plan.contracts_per_month },
    sms: { used: used.sms_per_month, allowed: plan.sms_per_month },
    seats: { used: used.seats, allowed: plan.seats },
    end_date: plan.end_date,
    is_ended: end.isEnded,
    warnings,
  };
}
