import { partyPath } from '../../shared/api/paths';
import { randomInt } from 'node:crypto';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { channelDetails, enqueuePartyMessage } from './party-messages';

const CODE_TTL_MS = 10 * 60_000;
const RESEND_AFTER_MS = 30_000;
const SENDS_PER_HOUR = 5;
const WRONG_GUESSES_ALLOWED = 5;
/**
 * A browser that entered the party's code keeps a short session: it ends after half an hour
 * unused (each request on the link moves that on) and after 8 hours in any case. A link opened
 * later asks for a fresh code.
 */
export const VERIFIED_IDLE_MS = 30 * 60_000;
export const VERIFIED_MAX_MS = 8 * 60 * 60_000;
/** The cookie is renewed at most once a minute. */
const REFRESH_AFTER_MS = 60_000;

/** When the browser entered the code, and when its session ends unless used again. */
export type VerifiedSession = { verifiedAt: number; expiresAt: number };

const codeMac = (ctx: AppContext, party: PartyRow, code: string) => ctx.secret.mac('party-code', `${party.id}:${code}`);

/** Sends a fresh six-digit code to the party by the channel the contract requires. */
export async function sendPartyCode(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  origin: RequestOrigin,
): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const previous = await ctx.repos.partyCodes.find(party.id);
    if (previous && now - previous.sentAt < RESEND_AFTER_MS) {
      const wait = Math.ceil((RESEND_AFTER_MS - (now - previous.sentAt)) / 1000);
      throw new AppError('rate-limited', `A code was sent a moment ago; ask for a new one in ${wait} s.`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    const isSameWindow = previous !== undefined && now - previous.windowStartedAt < 60 * 60_000;
    const sends = isSameWindow ? previous.sendsInWindow + 1 : 1;
    if (sends > SENDS_PER_HOUR) {
      const windowStart = previous?.windowStartedAt ?? now;
      const wait = Math.max(1, Math.ceil((windowStart + 60 * 60_000 - now) / 1000));
      throw new AppError('rate-limited', `Too many codes were sent in the last hour; try again in ${wait} s.`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    await ctx.repos.partyCodes.save({
      partyId: party.id,
      codeHash: codeMac(ctx, party, code),
      expiresAt: now + CODE_TTL_MS,
      failedAttempts: 0,
      sentAt: now,
      sendsInWindow: sends,
      windowStartedAt: isSameWindow ? previous.windowStartedAt : now,
    });
    const channels = await enqueuePartyMessage(ctx, 'code', contract, party, { code });
    await logActivity(ctx, {
      contractId: contract.id,
      event: 'party.code_sent',
      subject: partyPath(party),
      partyId: party.id,
      details: channelDetails(party, channels),
      ...origin,
    });
  });
}

/** Whether the contract's newest activity entry is already this party's failed check for `reason`. */
async function isRepeatedFailure(ctx: AppContext, party: PartyRow, reason: string): Promise<boolean> {
  const newest = await ctx.repos.activity.newest(party.contractId);
  return (
    newest?.event === 'party.code_failed' &&
    newest.partyId === party.id &&
    (JSON.parse(newest.details) as { reason?: string }).reason === reason
  );
}

/**
 * Checks a code; a right one is spent at once. Five wrong guesses spend the code too. Each
 * check is an activity entry (`party.code_verified` or `party.code_failed` with the reason),
 * but for a check that can change nothing (no code, an expired or spent one) repeated at once:
 * a link's 120 tries a minute would otherwise write 120 entries (red team review, 7).
 */
export async function verifyPartyCode(
  ctx: AppContext,
  party: PartyRow,
  code: string,
  origin: RequestOrigin,
): Promise<boolean> {
  return inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const row = await ctx.repos.partyCodes.find(party.id);
    const entry = { contractId: party.contractId, subject: partyPath(party), partyId: party.id, ...origin };
    const fail = async (reason: string) => (
      await logActivity(ctx, { ...entry, event: 'party.code_failed', details: { reason } }),
      false
    );
    const refuse = async (reason: string) =>
      (await isRepeatedFailure(ctx, party, reason)) ? false : await fail(reason);
    if (!row) return refuse('no code was sent');
    if (row.expiresAt <= now) return refuse('the code had expired');
    if (row.failedAttempts >= WRONG_GUESSES_ALLOWED) return refuse('the code was spent by wrong guesses');
    if (!ctx.secret.isMacValid('party-code', `${party.id}:${code}`, row.codeHash)) {
      await ctx.repos.partyCodes.countFailure(party.id);
      return fail(`wrong code (guess ${row.failedAttempts + 1} of ${WRONG_GUESSES_ALLOWED})`);
    }
    await ctx.repos.partyCodes.spend(party.id, now);
    await logActivity(ctx, { ...entry, event: 'party.code_verified' });
    return true;
  });
}

export const startVerifiedSession = (now: number): VerifiedSession => ({
  verifiedAt: now,
  expiresAt: now + VERIFIED_IDLE_MS,
});

/** The cookie value that says this browser entered the party's code: both times (13 digits each), then their MAC. */
export function verifiedCookieValue(ctx: AppContext, party: PartyRow, session: VerifiedSession): string {
  return `${session.verifiedAt}${session.expiresAt}${ctx.secret.mac('party-verified', `${party.id}:${session.verifiedAt}:${session.expiresAt}`)}`;
}

/** The live verified session a cookie names for this party, or undefined. */
export function readVerifiedCookie(
  ctx: AppContext,
  party: PartyRow,
  value: string | undefined,
): VerifiedSession | undefined {
  const match = value ? /^(\d{13})(\d{13})([\w-]{43})$/.exec(value) : null;
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  const session = { verifiedAt: Number(match[1]), expiresAt: Number(match[2]) };
  const now = ctx.now();
  if (session.expiresAt <= now || session.verifiedAt + VERIFIED_MAX_MS <= now) return undefined;
  const isGenuine = ctx.secret.isMacValid(
    'party-verified',
    `${party.id}:${session.verifiedAt}:${session.expiresAt}`,
    match[3],
  );
  return isGenuine ? session : undefined;
}

/** The session moved on after a request made `now`, or undefined when the cookie need not change yet. */
export function renewedSession(session: VerifiedSession, now: number): VerifiedSession | undefined {
  const expiresAt = Math.min(now + VERIFIED_IDLE_MS, session.verifiedAt + VERIFIED_MAX_MS);
  return expiresAt - session.expiresAt >= REFRESH_AFTER_MS ? { verifiedAt: session.verifiedAt, expiresAt } : undefined;
}

/** a***@example.com or +46 *** *** 12: enough for the party to recognise, little for anyone else. */
export function maskedDestination(contract: ContractRow, party: PartyRow): string {
  if (contract.requireAuth === 'SMS_CODE') {
    const digits = party.mobilePhone.replace(/\s+/g, '');
    return digits.length <= 4 ? '***' : `${digits.slice(0, 3)} *** ${digits.slice(-2)}`;
  }
  const [local = '', domain = ''] = party.email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
