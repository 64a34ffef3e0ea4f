import { RATE_LIMIT_WINDOW_SECONDS } from '../../shared/constants';

/**
 * Per-key sliding window of one minute in one-second slots: at most `limit` requests in any
 * 60 consecutive seconds, with O(60) memory per key whatever the limit.
 */
export type RateDecision = {
  isAllowed: boolean;
  limit: number;
  remaining: number;
  /** When one new request can be made (epoch ms); set when the quota is used up. */
  resetAt: number | undefined;
};

type Window = { counts: Uint32Array; seconds: Float64Array };

const SLOTS = RATE_LIMIT_WINDOW_SECONDS;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  take(key: string, limit: number, nowMs: number): RateDecision {
    const window = this.windowFor(key);
    const second = Math.floor(nowMs / 1000);
    const oldest = second - SLOTS + 1;
    let used = 0;
    let earliest = Infinity;
    for (let slot = 0; slot < SLOTS; slot += 1) {
      const at = window.seconds[slot] as number;
      const n = window.counts[slot] as number;
      if (n > 0 && at >= oldest) {
        used += n;
        if (at < earliest) earliest = at;
      }
    }
    if (used >= limit) {
      return { isAllowed: false, limit, remaining: 0, resetAt: (earliest + SLOTS) * 1000 };
    }
    const slot = second % SLOTS;
    if (window.seconds[slot] !== second) {
      window.seconds[slot] = second;
      window.counts[slot] = 0;
    }
    window.counts[slot] = (window.counts[slot] as number) + 1;
    used += 1;
    if (second < earliest) earliest = second;
    const remaining = limit - used;
    return { isAllowed: true, limit, remaining, resetAt: remaining === 0 ? (earliest + SLOTS) * 1000 : undefined };
  }

  forget(key: string): void {
    this.windows.delete(key);
  }

  private windowFor(key: string): Window {
    let window = this.windows.get(key);
    if (!window) {
      window = { counts: new Uint32Array(SLOTS), seconds: new Float64Array(SLOTS).fill(-Infinity) };
      this.windows.set(key, window);
    }
    return window;
  }
}
