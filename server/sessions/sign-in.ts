import type { TSignIn } from '../../shared/api/session';
import type { AppContext } from '../context/app-context';
import { hashPassword, verifyPassword } from '../crypto/password';
import { AppError } from '../core/errors';
import type { SignInOutcome } from '../context/sign-in-throttle';
import { startSession, type RequestOrigin, type StartedSession } from './start-session';
import { assertPasswordSignInAllowed } from './sso-settings';

let decoyHash: Promise<string> | undefined;

/**
 * Username and password to a session. An unknown user, a user without a password and a
 * wrong password take the same time and get the same answer. The try is taken from the
 * throttle before the slow check, so parallel guesses cannot all be checked.
 */
export async function signIn(ctx: AppContext, input: TSignIn, origin: RequestOrigin): Promise<StartedSession> {
  await assertPasswordSignInAllowed(ctx, input.username);
  const throttle = ctx.admin.signInThrottle;
  const decision = throttle.begin(input.username, origin.ipAddress, ctx.now());
  if ('waitMs' in decision) {
    const seconds = Math.max(1, Math.ceil(decision.waitMs / 1000));
    throw new AppError(
      'rate-limited',
      `Too many failed sign-ins from here; try again in ${seconds < 120 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`}.`,
      {
        headers: { 'Retry-After': String(seconds) },
      },
    );
  }
  let outcome: SignInOutcome = 'aborted';
  try {
    const user = await ctx.repos.users.findByUsername(input.username);
    decoyHash ??= hashPassword('decoy password that matches nothing');
    const stored = user?.passwordHash ?? (await decoyHash);
    const isPasswordRight = await verifyPassword(input.password, stored);
    if (!user || !user.passwordHash || !isPasswordRight || !user.active) {
      outcome = 'failed';
      throw new AppError('unauthorized', 'The username or password is wrong, or the account is not active.');
    }
    outcome = 'succeeded';
    return await startSession(ctx, user.id, origin);
  } finally {
    throttle.finish(decision.ticket, outcome, ctx.now());
  }
}
