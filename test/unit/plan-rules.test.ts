import { describe, expect, it } from 'vitest';
import { daysBetween, endDateState, isNearLimit, monthOfTimestamp, nextMonth } from '../../shared/plan-rules';
import { formatTimestamp } from '../../shared/time';
import { monthStart, usageMonth } from '../../server/subscription/plan-month';

/** What the month needs of an office's context: its zone, and timestamps in it. */
const office = (timeZone: string) =>
  ({
    config: { timeZone },
    timestamp: (at: number) => formatTimestamp(at, timeZone),
  }) as unknown as Parameters<typeof usageMonth>[0];

describe("the plan's warnings and months", () => {
  it('warns from 80 % of a limit, never of an unlimited one or one of 0', () => {
    expect(isNearLimit(4, 5)).toBe(true);
    expect(isNearLimit(3, 5)).toBe(false);
    expect(isNearLimit(8, 10)).toBe(true);
    expect(isNearLimit(7, 10)).toBe(false);
    expect(isNearLimit(12, 10)).toBe(true);
    expect(isNearLimit(1, 1)).toBe(true);
    expect(isNearLimit(0, 1)).toBe(false);
    expect(isNearLimit(1_000, null)).toBe(false);
    expect(isNearLimit(0, 0)).toBe(false);
    expect(isNearLimit(3, 0)).toBe(false);
  });

  it('warns of an end date 14 days ahead; after its last day the plan has ended', () => {
    expect(endDateState(null, '2026-12-07')).toEqual({ daysLeft: null, isEnded: false, isNear: false });
    expect(endDateState('2026-12-22', '2026-12-07')).toEqual({ daysLeft: 15, isEnded: false, isNear: false });
    expect(endDateState('2026-12-21', '2026-12-07')).toEqual({ daysLeft: 14, isEnded: false, isNear: true });
    expect(endDateState('2026-12-07', '2026-12-07')).toEqual({ daysLeft: 0, isEnded: false, isNear: true });
    expect(endDateState('2026-12-06', '2026-12-07')).toEqual({ daysLeft: -1, isEnded: true, isNear: true });
    expect(daysBetween('2027-02-27', '2027-03-01')).toBe(2);
    expect(daysBetween('2028-02-27', '2028-03-01')).toBe(3);
  });

  it("turns the month at midnight in the office's zone, or the first hour a zone has", () => {
    expect(nextMonth('2026-12')).toBe('2027-01');
    expect(nextMonth('2027-09')).toBe('2027-10');
    expect(monthOfTimestamp('2026-12-31 23:59:59')).toBe('2026-12');
    // 23:30 UTC on New Year's Eve is already January in Stockholm, still December in New York.
    const eve = Date.parse('2026-12-31T23:30:00Z');
    expect(usageMonth(office('Europe/Stockholm'), eve).month).toBe('2027-01');
    expect(usageMonth(office('America/New_York'), eve).month).toBe('2026-12');
    expect(new Date(monthStart(office('Europe/Stockholm'), '2027-01')).toISOString()).toBe('2026-12-31T23:00:00.000Z');
    // Summer time began at midnight on 1 October 2017 in Paraguay: that month began at 01:00.
    expect(new Date(monthStart(office('America/Asuncion'), '2017-10')).toISOString()).toBe('2017-10-01T04:00:00.000Z');
    const stockholm = usageMonth(office('Europe/Stockholm'), Date.parse('2027-03-31T21:59:59Z'));
    expect(stockholm).toMatchObject({ month: '2027-03', today: '2027-03-31' });
    expect(new Date(stockholm.turnsAt).toISOString()).toBe('2027-03-31T22:00:00.000Z');
  });
});
