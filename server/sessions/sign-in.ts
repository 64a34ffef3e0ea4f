import type { TSignIn } from '../../shared/api/session';
import type { AppContext } from '../core/context';
import { hashPassword, verifyPassword } from '../crypto/password';
import { AppError } from '../core/errors';
import { startSession, type RequestOrigin, type StartedSession } from './start-session';

let decoyHash: Promise<string> | undefined;

/**
 * Username and password to a session. An unknown user, a user without a password and a
 * wrong password take the same time and get the same answer; guessing is throttled.
 */
export async function signIn(ctx: AppContext, input: TSignIn, origin: RequestOrigin): Promise<StartedSession> {
  const throttle = ctx.admin.signInThrottle;
  const waitMs = throttle.waitMs(input.username, origin.ipAddress, ctx.now());
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError('rate-limited', `Too many failed sign-ins; try again in ${Math.ceil(seconds / 60)} min.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  const user = ctx.repos.users.findByUsername(input.username);
  decoyHash ??= hashPassword('decoy password that matches nothing');
  const stored = user?.passwordHash ?? (await decoyHash);
  const isPasswordRight = await verifyPassword(input.password, stored);
  if (!user || !user.passwordHash || !isPasswordRight || !user.active) {
    throttle.recordFailure(input.username, origin.ipAddress, ctx.now());
    throw new AppError('unauthorized', 'The username or password is wrong, or the account is not active.');
  }
  throttle.recordSuccess(input.username);
  return startSession(ctx, user.id, origin);
}
