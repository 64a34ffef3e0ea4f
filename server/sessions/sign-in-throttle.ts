/**
 * Failed sign-ins counted per username and per client address in fixed 15-minute windows:
 * past the limit further tries are refused (429) until the window ends, whether or not the
 * password would be right, so guessing gets nowhere.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_USERNAME = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;
const MAX_KEYS = 10_000;

type Window = { failures: number; startedAt: number };

export class SignInThrottle {
  private readonly windows = new Map<string, Window>();

  /** Milliseconds until a try is allowed again; 0 when it is allowed now. */
  waitMs(username: string, address: string, now: number): number {
    const byUser = this.blockedFor(`u:${username.toLowerCase()}`, MAX_FAILURES_PER_USERNAME, now);
    const byAddress = this.blockedFor(`a:${address}`, MAX_FAILURES_PER_ADDRESS, now);
    return Math.max(byUser, byAddress);
  }

  recordFailure(username: string, address: string, now: number): void {
    if (this.windows.size > MAX_KEYS) this.prune(now);
    for (const key of [`u:${username.toLowerCase()}`, `a:${address}`]) {
      const window = this.windows.get(key);
      if (!window || now - window.startedAt >= SIGN_IN_WINDOW_MS) this.windows.set(key, { failures: 1, startedAt: now });
      else window.failures += 1;
    }
  }

  recordSuccess(username: string): void {
    this.windows.delete(`u:${username.toLowerCase()}`);
  }

  private blockedFor(key: string, limit: number, now: number): number {
    const window = this.windows.get(key);
    if (!window || window.failures < limit) return 0;
    return Math.max(0, window.startedAt + SIGN_IN_WINDOW_MS - now);
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startedAt >= SIGN_IN_WINDOW_MS) this.windows.delete(key);
    }
  }
}
