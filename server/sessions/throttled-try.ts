import type { AppContext } from '../context/app-context';
import type { SignInOutcome, SignInTicket } from '../context/sign-in-throttle';
import { AppError } from '../core/errors';

/** The 429 of a try the sign-in throttle holds back, with how long to wait. */
export function tooManyTries(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(
    'rate-limited',
    `Too many failed sign-ins from here; try again in ${seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`}.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/**
 * A check of something secret (a code, a password) counted by the sign-in throttle under the
 * same (username, address) and address counts as the password: taken before the check, so
 * parallel guesses cannot all be checked. `work` says how it went; a throw it did not mark
 * counts as a failure.
 */
export async function throttledTry<T>(
  ctx: AppContext,
  username: string,
  address: string,
  work: (settle: (outcome: SignInOutcome) => void) => Promise<T>,
): Promise<T> {
  const throttle = ctx.admin.signInThrottle;
  const decision = throttle.begin(username, address, ctx.now());
  if ('waitMs' in decision) throw tooManyTries(decision.waitMs);
  const ticket: SignInTicket = decision.ticket;
  let outcome: SignInOutcome | undefined;
  try {
    return await work((settled) => (outcome = settled));
  } catch (err) {
    outcome ??= 'failed';
    throw err;
  } finally {
    throttle.finish(ticket, outcome ?? 'aborted', ctx.now());
  }
}
