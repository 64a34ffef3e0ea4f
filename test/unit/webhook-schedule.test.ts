import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config/config';
import { oneMonthBefore } from '../../server/webhooks/purge-webhook-events';
import { classifyAnswer, judgeAttempt } from '../../server/webhooks/judge-attempt';

const answer = (statusCode: number | null, isTimeout = false) => ({ statusCode, isTimeout });

describe('webhook outcome rules', () => {
  it('handles any 2xx, retries 429, 5xx, 4xx but 410, and connection errors; 3xx, 410 and timeouts are permanent', () => {
    for (const status of [200, 201, 202, 204, 299]) expect(classifyAnswer(answer(status))).toBe('delivered');
    for (const status of [400, 401, 404, 409, 429, 500, 502, 503, 599])
      expect(classifyAnswer(answer(status))).toBe('retry');
    for (const status of [300, 301, 302, 307, 308, 410]) expect(classifyAnswer(answer(status))).toBe('permanent');
    expect(classifyAnswer(answer(null))).toBe('retry');
    expect(classifyAnswer(answer(null, true))).toBe('permanent');
  });

  it('follows the default schedule to a last attempt at 75 h 35 min, then fails', () => {
    const { webhookRetryScheduleS } = loadConfig({});
    let at = 0;
    const times = [at];
    for (let attempt = 1; ; attempt += 1) {
      const verdict = judgeAttempt(answer(503), attempt, at, webhookRetryScheduleS, 0);
      if (verdict.nextAttemptAt === null) {
        expect(verdict).toMatchObject({ outcome: 'failed', state: 'failed', isPermanentError: false });
        break;
      }
      expect(verdict).toMatchObject({ outcome: 'retry', state: 'pending' });
      at = verdict.nextAttemptAt;
      times.push(at);
    }
    const minutes = times.map((ms) => ms / 60_000);
    // The retry schedule: 5 min, 35 min, 2 h 35, 7 h 35, 17 h 35, 31 h 35, 51 h 35, 75 h 35.
    expect(minutes).toEqual([0, 5, 35, 155, 455, 1055, 1895, 3095, 4535]);
  });

  it('spreads each retry by up to a tenth of its delay, never more than a minute, early or late', () => {
    const { webhookRetryScheduleS } = loadConfig({});
    const offsets = (spread: number) =>
      webhookRetryScheduleS.map(
        (delayS, index) =>
          ((judgeAttempt(answer(503), index + 1, 0, webhookRetryScheduleS, spread).nextAttemptAt as number) -
            delayS * 1000) /
          1000,
      );
    // 5 min: ±30 s; 30 min and longer: ±1 min.
    expect(offsets(1)).toEqual([30, 60, 60, 60, 60, 60, 60, 60]);
    expect(offsets(-1)).toEqual([-30, -60, -60, -60, -60, -60, -60, -60]);
    expect(offsets(0.5)[0]).toBe(15);
    // Left to chance, twenty deliveries failing in the same second are retried in different ones.
    const seconds = new Set(
      Array.from({ length: 20 }, () =>
        Math.round((judgeAttempt(answer(503), 1, 0, [300]).nextAttemptAt as number) / 1000),
      ),
    );
    expect(seconds.size).toBeGreaterThan(10);
    for (const second of seconds) expect(Math.abs(second - 300)).toBeLessThanOrEqual(30);
  });

  it('ends a delivery on a permanent error, counting it towards disabling', () => {
    expect(judgeAttempt(answer(410), 1, 0, [1])).toEqual({
      outcome: 'permanent',
      state: 'failed',
      nextAttemptAt: null,
      isPermanentError: true,
    });
    expect(judgeAttempt(answer(204), 3, 0, [1])).toEqual({
      outcome: 'delivered',
      state: 'delivered',
      nextAttemptAt: null,
      isPermanentError: false,
    });
  });
});

describe('one month of event log', () => {
  it('goes back one calendar month, clamped at the end of a short month', () => {
    expect(new Date(oneMonthBefore(Date.UTC(2026, 4, 15, 10))).toISOString()).toBe('2026-04-15T10:00:00.000Z');
    expect(new Date(oneMonthBefore(Date.UTC(2026, 2, 31, 12))).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(new Date(oneMonthBefore(Date.UTC(2026, 0, 10))).toISOString()).toBe('2025-12-10T00:00:00.000Z');
  });
});
