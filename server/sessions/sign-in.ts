import type { TSignIn } from '../../shared/api/session';
import type { AppContext } from '../context/app-context';
import { hashPassword, verifyPassword } from '../crypto/password';
import { AppError } from '../core/errors';
import type { SignInOutcome } from '../context/sign-in-throttle';
import type { RequestOrigin } from './start-session';
import { afterPassword, isPending, type SignInResult } from './second-step';
import { tooManyTries } from './throttled-try';
import { assertPasswordSignInAllowed } from './sso-settings';

let decoyHash: Promise<string> | undefined;

/**
 * Username and password to a session (or, for a user with a second factor or who must set one
 * up, to the step still owed: second-step.ts). An unknown user, a user without a password and a
 * wrong password take the same time and get the same answer. The try is taken from the
 * throttle before the slow check, so parallel guesses cannot all be checked.
 */
export async function signIn(ctx: AppContext, input: TSignIn, origin: RequestOrigin): Promise<SignInResult> {
  await assertPasswordSignInAllowed(ctx, input.username);
  const throttle = ctx.admin.signInThrottle;
  const decision = throttle.begin(input.username, origin.ipAddress, ctx.now());
  if ('waitMs' in decision) throw tooManyTries(decision.waitMs);
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
    const result = await afterPassword(ctx, user, origin);
    // With a second step still owed, the right password alone does not clear the count.
    outcome = isPending(result) ? 'aborted' : 'succeeded';
    return result;
  } finally {
    throttle.finish(decision.ticket, outcome, ctx.now());
  }
}
