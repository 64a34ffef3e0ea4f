import { parseTimestamp } from '../../shared/time';
import { monthOfTimestamp, nextMonth } from '../../shared/plan-rules';
import type { ReadContext } from '../context/read-context';

/** The calendar month (`YYYY-MM`) and day (`YYYY-MM-DD`) of a moment in the office's time zone. */
export function planDay(ctx: Pick<ReadContext, 'timestamp'>, at: number): { month: string; today: string } {
  const text = ctx.timestamp(at);
  return { month: monthOfTimestamp(text), today: text.slice(0, 10) };
}

/**
 * When a month (`YYYY-MM`) begins in the office's time zone: its first midnight, or the first
 * hour after it where a zone skips midnight for summer time.
 */
export function monthStart(ctx: Pick<ReadContext, 'config'>, month: string): number {
  for (let hour = 0; hour < 24; hour += 1) {
    const at = parseTimestamp(`${month}-01 ${String(hour).padStart(2, '0')}:00:00`, ctx.config.timeZone);
    if (at !== undefined) return at;
  }
  throw new Error(`no hour of ${month}-01 exists in ${ctx.config.timeZone}`);
}

/** This month and the moment the next one begins: when the monthly allowances reset. */
export function usageMonth(
  ctx: Pick<ReadContext, 'timestamp' | 'config'>,
  at: number,
): { month: string; today: string; startsAt: number; turnsAt: number } {
  const { month, today } = planDay(ctx, at);
  return { month, today, startsAt: monthStart(ctx, month), turnsAt: monthStart(ctx, nextMonth(month)) };
}
