/**
 * When the office is warned of its plan (docs/decisions.md, "Subscription"): pure rules, so
 * that the API's `warnings`, the admin UI and the tests read the same thresholds.
 */

/** A limit warns once this share of it is used. */
export const PLAN_WARNING_SHARE = 0.8;
/** An end date warns this many days ahead. */
export const PLAN_END_WARNING_DAYS = 14;

/**
 * At or past 80 % of a limit. A limit of 0 (SMS left out of a plan, say) warns of nothing: the
 * office cannot creep up on it, and a refusal says what it is when something asks for it.
 */
export function isNearLimit(used: number, allowed: number | null): boolean {
  return allowed !== null && allowed > 0 && used >= allowed * PLAN_WARNING_SHARE;
}

/** Whole days from one `YYYY-MM-DD` to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const day = (text: string) =>
    Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)));
  return Math.round((day(to) - day(from)) / 86_400_000);
}

/** The calendar month (`YYYY-MM`) of an API timestamp: the office's month, whose usage counts against the plan. */
export const monthOfTimestamp = (timestamp: string): string => timestamp.slice(0, 7);

/** `2026-12` -> `2027-01`. */
export function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5, 7));
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** The end date warns from 14 days ahead; after it, the plan has ended (its last day still counts). */
export function endDateState(
  endDate: string | null,
  today: string,
): { daysLeft: number | null; isEnded: boolean; isNear: boolean } {
  if (endDate === null) return { daysLeft: null, isEnded: false, isNear: false };
  const daysLeft = daysBetween(today, endDate);
  return { daysLeft, isEnded: daysLeft < 0, isNear: daysLeft <= PLAN_END_WARNING_DAYS };
}
