/**
 * Password guessing, slowed down without letting anyone lock someone else out. Tries are
 * counted per (username, address) and per address, and each try is taken (`begin`) before
 * the slow password check, so parallel guesses cannot all be checked: once the free tries are
 * used, a new try waits while one is still being checked, and after each further failure the
 * next try must wait twice as long (1 s, 2 s, 4 s, … up to 15 minutes, told in Retry-After).
 * There is no count per username alone: a stranger guessing the administrator's password from
 * another address slows only their own address. Counts are forgotten after 15 quiet minutes;
 * the right password clears its (username, address) count.
 */
export const FREE_FAILURES_PER_USER_ADDRESS = 5;
export const FREE_FAILURES_PER_ADDRESS = 20;
const FIRST_WAIT_MS = 1_000;
const MAX_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 15 * 60_000;
/** While free tries are still being checked, another waits about this long. */
const IN_FLIGHT_WAIT_MS = 1_000;
const MAX_KEYS = 10_000;

type Counter = { failures: number; inFlight: number; nextAllowedAt: number; lastAt: number };

/** A try that was let through: finish it with its outcome. */
export type SignInTicket = { keys: [string, string] };
export type SignInDecision = { ticket: SignInTicket } | { waitMs: number };
export type SignInOutcome = 'failed' | 'succeeded' | 'aborted';

const waitAfter = (failures: number, free: number) =>
  failures < free ? 0 : Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - free));

export class SignInThrottle {
  private readonly counters = new Map<string, Counter>();

  /** Lets a try through (and counts it as under way) or says how long to wait. */
  begin(username: string, address: string, now: number): SignInDecision {
    const keys: [string, string] = [`ua:${username.toLowerCase()}\u0000${address}`, `a:${address}`];
    const frees = [FREE_FAILURES_PER_USER_ADDRESS, FREE_FAILURES_PER_ADDRESS];
    let waitMs = 0;
    keys.forEach((key, index) => {
      const counter = this.counterOf(key, now);
      if (counter.nextAllowedAt > now) waitMs = Math.max(waitMs, counter.nextAllowedAt - now);
      else if (counter.inFlight > 0 && counter.failures + counter.inFlight >= (frees[index] as number))
        waitMs = Math.max(waitMs, IN_FLIGHT_WAIT_MS);
    });
    if (waitMs > 0) return { waitMs };
    for (const key of keys) {
      const counter = this.counterOf(key, now);
      counter.inFlight += 1;
      counter.lastAt = now;
      this.counters.set(key, counter);
    }
    if (this.counters.size > MAX_KEYS) this.prune(now);
    return { ticket: { keys } };
  }

  /** Ends a try: a failure counts (and sets the next wait), the right password clears its (username, address) count. */
  finish(ticket: SignInTicket, outcome: SignInOutcome, now: number): void {
    ticket.keys.forEach((key, index) => {
      const counter = this.counters.get(key);
      if (!counter) return;
      counter.inFlight = Math.max(0, counter.inFlight - 1);
      counter.lastAt = now;
      if (outcome === 'failed') {
        counter.failures += 1;
        const wait = waitAfter(
          counter.failures,
          index === 0 ? FREE_FAILURES_PER_USER_ADDRESS : FREE_FAILURES_PER_ADDRESS,
        );
        if (wait > 0) counter.nextAllowedAt = now + wait;
      }
      if (outcome === 'succeeded' && index === 0) Object.assign(counter, { failures: 0, nextAllowedAt: 0 });
    });
  }

  private counterOf(key: string, now: number): Counter {
    const counter = this.counters.get(key);
    if (
      !counter ||
      (counter.inFlight === 0 && now - Math.max(counter.lastAt, counter.nextAllowedAt) >= FORGET_AFTER_MS)
    ) {
      return { failures: 0, inFlight: 0, nextAllowedAt: 0, lastAt: now };
    }
    return counter;
  }

  /** Forgets quiet counters; if that is not enough, the oldest (a flood from very many addresses). */
  private prune(now: number): void {
    for (const [key, counter] of this.counters) {
      if (counter.inFlight === 0 && now - Math.max(counter.lastAt, counter.nextAllowedAt) >= FORGET_AFTER_MS)
        this.counters.delete(key);
    }
    for (const key of this.counters.keys()) {
      if (this.counters.size <= MAX_KEYS) break;
      if ((this.counters.get(key) as Counter).inFlight === 0) this.counters.delete(key);
    }
  }
}
