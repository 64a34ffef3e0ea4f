import { createHash, randomBytes } from 'node:crypto';
import type { AppSecret } from '../crypto/app-secret';
import { inTransaction, type Database } from '../db/database';
import type { Repos } from '../db/repos/index';
import type { PartyRow } from '../db/repos/parties';

/**
 * A party's link token is never stored: the database keeps its SHA-256 (to find the party by
 * its link) and a random nonce; the token is HMAC(app secret, nonce), so the link can be shown
 * again (`contract_url`, invitations) with DATA_DIR/keys and not from a copy of the database.
 * Links made before this (random tokens) are kept working: their token is sealed under the app
 * secret instead (migrateLinkTokens).
 */
export const hashLinkToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** The parts of the context links are made with (an AppContext is one). */
type LinkContext = { readonly secret: AppSecret; readonly partyBaseUrl: () => string };

const tokenOfNonce = (ctx: Pick<LinkContext, 'secret'>, nonce: string) => ctx.secret.mac('sign-link', nonce);

/** A fresh link: 256 random bits of nonce, the token made from it, and what is stored. */
export function newLinkToken(ctx: Pick<LinkContext, 'secret'>): { token: string; nonce: string; hash: string } {
  const nonce = randomBytes(32).toString('base64url');
  const token = tokenOfNonce(ctx, nonce);
  return { token, nonce, hash: hashLinkToken(token) };
}

/**
 * The party's link token, or undefined when it cannot be worked out here (a database brought
 * from another installation without its keys): checked against the stored hash either way.
 */
export function linkTokenOf(
  ctx: Pick<LinkContext, 'secret'>,
  party: Pick<PartyRow, 'signNonce' | 'signTokenSealed' | 'signTokenHash'>,
): string | undefined {
  const token =
    party.signNonce !== null
      ? tokenOfNonce(ctx, party.signNonce)
      : party.signTokenSealed !== null
        ? ctx.secret.open('sign-link', party.signTokenSealed)
        : undefined;
  return token !== undefined && hashLinkToken(token) === party.signTokenHash ? token : undefined;
}

/** `/sign/<token>` on the party surface's base URL, or '' when the link cannot be worked out here. */
export function signingLink(ctx: LinkContext, party: PartyRow): string {
  const token = linkTokenOf(ctx, party);
  return token === undefined ? '' : `${ctx.partyBaseUrl()}/sign/${token}`;
}

/**
 * Parties from before links were derived hold their token in clear in sign_token_hash (the
 * migration renamed the column; SQL has no key to seal with). At start-up each is sealed under
 * the app secret and replaced by its hash, in one transaction: the old link keeps working,
 * and the database no longer holds it.
 */
export async function migrateLinkTokens(
  ctx: Pick<LinkContext, 'secret'> & { readonly db: Database; readonly repos: Pick<Repos, 'parties'> },
): Promise<number> {
  const legacy = await ctx.repos.parties.listLegacyLinkTokens();
  if (legacy.length === 0) return 0;
  await inTransaction(ctx.db, async () => {
    for (const party of legacy)
      await ctx.repos.parties.replaceLegacyLinkToken(
        party.id,
        hashLinkToken(party.token),
        ctx.secret.seal('sign-link', party.token),
      );
  });
  return legacy.length;
}
