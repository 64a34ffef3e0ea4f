import type { AppContext } from '../context/app-context';
import type { UserRow } from '../db/repos/users';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import { verifyPassword } from '../crypto/password';
import { logOfficeEvent } from '../activity/office-log';
import type { RequestOrigin } from './start-session';
import { throttledTry } from './throttled-try';
import {
  isTotpShaped,
  matchTotp,
  newRecoveryCode,
  newTotpSecret,
  normalizeRecoveryCode,
  qrCodeSvg,
  RECOVERY_CODE_COUNT,
  totpUri,
} from './totp';

/**
 * A staff user's second factor: an authenticator app (TOTP) and ten one-time recovery codes.
 * The secret is sealed with the app secret (purpose `totp-secret`); the recovery codes are kept
 * as HMACs under it. Every change is in the office log, inside the change's transaction.
 */
const SEAL_PURPOSE = 'totp-secret';
const wrongCode = () => new AppError('unauthorized', 'The code is wrong, or was used already.');

export type TotpEnrolment = { secret: string; otpauthUri: string; qrCodeSvg: string };

export const recoveryCodeHash = (ctx: AppContext, userId: number, code: string): string =>
  ctx.secret.mac('recovery-code', `${userId}:${normalizeRecoveryCode(code)}`);

/** Whether the user has a confirmed authenticator app. */
export async function hasSecondFactor(ctx: AppContext, userId: number): Promise<boolean> {
  return (await ctx.repos.secondFactors.findTotp(userId))?.confirmedAt != null;
}

/** A new secret for the user's authenticator app, unconfirmed until a code of it comes back. */
export async function startTotpEnrolment(ctx: AppContext, user: UserRow): Promise<TotpEnrolment> {
  if (await hasSecondFactor(ctx, user.id))
    throw new AppError('conflict', 'An authenticator app is set up already; turn it off first to set up another.');
  const secret = newTotpSecret();
  await ctx.repos.secondFactors.putPendingTotp(user.id, ctx.secret.seal(SEAL_PURPOSE, secret), ctx.now());
  const office = await ctx.repos.office.get(ctx.now());
  const otpauthUri = totpUri(office.name || 'SignDesk', user.username, secret);
  return { secret, otpauthUri, qrCodeSvg: await qrCodeSvg(otpauthUri) };
}

/**
 * The user's code of the secret just shown: the app is on from now on, and its ten recovery
 * codes are returned, the only time they are readable. Counted by the sign-in throttle.
 */
export async function confirmTotpEnrolment(
  ctx: AppContext,
  user: UserRow,
  code: string,
  origin: RequestOrigin,
): Promise<string[]> {
  return throttledTry(ctx, user.username, origin.ipAddress, async (settle) => {
    const row = await ctx.repos.secondFactors.findTotp(user.id);
    if (!row || row.confirmedAt !== null)
      throw new AppError('conflict', 'Start setting up the authenticator app first (or it is set up already).');
    const secret = ctx.secret.open(SEAL_PURPOSE, row.secretSealed);
    const step = secret === undefined ? undefined : matchTotp(secret, code, ctx.now());
    if (step === undefined) throw wrongCode();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await inTransaction(ctx.db, async () => {
      if (!(await ctx.repos.secondFactors.takeStep(user.id, step))) throw wrongCode();
      const now = ctx.now();
      await ctx.repos.secondFactors.confirmTotp(user.id, now);
      const hashes = codes.map((c) => recoveryCodeHash(ctx, user.id, c));
      await ctx.repos.secondFactors.replaceRecoveryCodes(user.id, hashes, now);
      await logOfficeEvent(ctx, {
        event: 'second_factor.enrolled',
        subject: `/api/users/${user.id}`,
        userId: user.id,
        ...origin,
        details: { method: 'totp', recovery_codes: RECOVERY_CODE_COUNT },
      });
    });
    settle('succeeded');
    return codes;
  });
}

/**
 * Whether `code` is the user's current authenticator code or one of their unused recovery
 * codes; either is taken (a code once, a recovery code for good). A recovery code used is in the
 * office log. Call it under the throttle.
 */
export async function takeSecondFactorCode(
  ctx: AppContext,
  user: UserRow,
  code: string,
  origin: RequestOrigin,
): Promise<boolean> {
  const row = await ctx.repos.secondFactors.findTotp(user.id);
  if (!row || row.confirmedAt === null) return false;
  if (isTotpShaped(code)) {
    const secret = ctx.secret.open(SEAL_PURPOSE, row.secretSealed);
    const step = secret === undefined ? undefined : matchTotp(secret, code, ctx.now());
    return step !== undefined && (await ctx.repos.secondFactors.takeStep(user.id, step));
  }
  if (normalizeRecoveryCode(code).length !== 10) return false;
  return inTransaction(ctx.db, async () => {
    const isUsed = await ctx.repos.secondFactors.useRecoveryCode(
      user.id,
      recoveryCodeHash(ctx, user.id, code),
      ctx.now(),
    );
    if (!isUsed) return false;
    await logOfficeEvent(ctx, {
      event: 'second_factor.recovery_code_used',
      subject: `/api/users/${user.id}`,
      userId: user.id,
      ...origin,
      details: { recovery_codes_left: await ctx.repos.secondFactors.countUnusedRecoveryCodes(user.id) },
    });
    return true;
  });
}

/** The user turns their second factor off, proving it with a current code or their password. */
export async function removeOwnSecondFactor(
  ctx: AppContext,
  user: UserRow,
  proof: { code?: string | undefined; password?: string | undefined },
  origin: RequestOrigin,
): Promise<void> {
  if (!(await hasSecondFactor(ctx, user.id))) throw new AppError('conflict', 'No authenticator app is set up for you.');
  await throttledTry(ctx, user.username, origin.ipAddress, async (settle) => {
    const isProven =
      proof.code !== undefined
        ? await takeSecondFactorCode(ctx, user, proof.code, origin)
        : proof.password !== undefined && user.passwordHash !== null
          ? await verifyPassword(proof.password, user.passwordHash)
          : false;
    if (!isProven) throw new AppError('unauthorized', 'The code or password is wrong.');
    settle('succeeded');
  });
  await removeSecondFactor(ctx, user.id, 'second_factor.removed', { userId: user.id, ...origin });
}

/**
 * The user's authenticator app and recovery codes go (turned off by the user, or reset by the
 * CLI for someone who lost their phone); the office log records it as `event`.
 */
export async function removeSecondFactor(
  ctx: AppContext,
  userId: number,
  event: 'second_factor.removed' | 'second_factor.reset',
  origin: Partial<RequestOrigin> & { userId?: number | null },
): Promise<boolean> {
  return inTransaction(ctx.db, async () => {
    const removed = (await ctx.repos.secondFactors.removeAll(userId)) > 0;
    await logOfficeEvent(ctx, {
      event,
      subject: `/api/users/${userId}`,
      ...origin,
      details: { method: 'totp', had_second_factor: removed },
    });
    return removed;
  });
}
