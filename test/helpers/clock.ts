import type { Clock } from '../../server/core/clock';

/** A clock a test moves: the system's time until told otherwise, in whole milliseconds as Date.now() gives it. */
export type TestClock = Clock & {
  /** Stops the time at `epochMs`. */
  set(epochMs: number): void;
  /** Lets the time run on, `ms` ahead of the system's (behind when negative). */
  shift(ms: number): void;
  /** The system's time again. */
  reset(): void;
};

export function createTestClock(): TestClock {
  let fixedAt: number | undefined;
  let offset = 0;
  return {
    now: () => fixedAt ?? Date.now() + offset,
    set(epochMs) {
      fixedAt = Math.round(epochMs);
    },
    shift(ms) {
      fixedAt = undefined;
      offset = Math.round(ms);
    },
    reset() {
      fixedAt = undefined;
      offset = 0;
    },
  };
}
