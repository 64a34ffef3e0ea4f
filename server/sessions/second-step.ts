import type { AppContext } from '../context/app-context';
import type { UserRow } from '../db/repos/users';
import { AppError } from '../core/errors';
import {
  confirmTotpEnrolment,
  hasSecondFactor,
  startTotpEnrolment,
  takeSecondFactorCode,
  type TotpEnrolment,
} from './second-factor';
import { startSession, type RequestOrigin, type StartedSession } from './start-session';
import { throttledTry } from './throttled-try';
import { isTwoFactorRequired } from './two-factor-rule';

/**
 * Between the right password and a session: the pending sign-in. Its token is sealed with the
 * app secret (nothing is stored), names the user and what is still owed (`totp`: a code;
 * `enrol`: setting up an authenticator app, as the office requires), and ends after 10 minutes.
 * It opens nothing by itself: each step still takes a code, counted by the sign-in throttle.
 */
const PURPOSE = 'sign-in-pending';
const PENDING_MS = 10 * 60_000;

export type PendingStep = 'totp' | 'enrol';
export type PendingSignIn = { pendingToken: string; step: PendingStep; expiresAt: number };
export type SignInResult = StartedSession | PendingSignIn;

export const isPending = (result: SignInResult): result is PendingSignIn => 'pendingToken' in result;

/** After the right password: a session, or the step still owed. */
export async function afterPassword(ctx: AppContext, user: UserRow, origin: RequestOrigin): Promise<SignInResult> {
  const step: PendingStep | undefined = (await hasSecondFactor(ctx, user.id))
    ? 'totp'
    : (await isTwoFactorRequired(ctx))
      ? 'enrol'
      : undefined;
  if (!step) return startSession(ctx, user.id, origin);
  const expiresAt = ctx.now() + PENDING_MS;
  const pendingToken = ctx.secret.seal(PURPOSE, JSON.stringify({ u: user.id, s: step, e: expiresAt }));
  return { pendingToken, step, expiresAt };
}

const ended = () => new AppError('unauthorized', 'This sign-in has ended; sign in again with your password.');

/** The user a pending token names, if it is still pending at `step` and the user still active. */
async function pendingUser(ctx: AppContext, token: string, step: PendingStep): Promise<UserRow> {
  const opened = token.length > 1_000 ? undefined : ctx.secret.open(PURPOSE, token);
  if (!opened) throw ended();
  const claims = JSON.parse(opened) as { u: number; s: PendingStep; e: number };
  if (claims.s !== step || ctx.now() >= claims.e) throw ended();
  const user = await ctx.repos.users.findById(claims.u);
  if (!user?.active) throw ended();
  return user;
}

/** The second step: an authenticator code or a recovery code completes the sign-in. */
export async function completeSignIn(
  ctx: AppContext,
  input: { pending_token: string; code: string },
  origin: RequestOrigin,
): Promise<StartedSession> {
  const user = await pendingUser(ctx, input.pending_token, 'totp');
  return throttledTry(ctx, user.username, origin.ipAddress, async (settle) => {
    if (!(await takeSecondFactorCode(ctx, user, input.code, origin)))
      throw new AppError('unauthorized', 'The code is wrong, or was used already.');
    settle('succeeded');
    return startSession(ctx, user.id, origin);
  });
}

/** Setting up an authenticator app before the first session, when the office requires two factors. */
export async function startEnrolmentAtSignIn(
  ctx: AppContext,
  input: { pending_token: string },
): Promise<TotpEnrolment> {
  return startTotpEnrolment(ctx, await pendingUser(ctx, input.pending_token, 'enrol'));
}

/** Its confirming code: the app is on, the session starts, and the recovery codes are shown once. */
export async function confirmEnrolmentAtSignIn(
  ctx: AppContext,
  input: { pending_token: string; code: string },
  origin: RequestOrigin,
): Promise<{ started: StartedSession; recoveryCodes: string[] }> {
  const user = await pendingUser(ctx, input.pending_token, 'enrol');
  const recoveryCodes = await confirmTotpEnrolment(ctx, user, input.code, origin);
  return { started: await startSession(ctx, user.id, origin), recoveryCodes };
}
