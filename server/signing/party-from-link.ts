import type { Request } from 'express';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { AppError } from '../core/errors';
import { hashLinkToken } from '../secrets/link-tokens';

/** Sign tokens are 256 random bits in base64url: 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const VERIFIED_COOKIE = 'sd_party';
export const SIGNING_CSRF_HEADER = 'x-signing-csrf';

/** The party a signing link belongs to; any other token is a plain 404 that says nothing more. */
export async function partyFromLink(ctx: AppContext, req: Request): Promise<PartyRow> {
  const token = String(req.params.token ?? '');
  const party = TOKEN_PATTERN.test(token)
    ? await ctx.repos.parties.findBySignTokenHash(hashLinkToken(token))
    : undefined;
  if (!party) throw new AppError('not-found', 'This signing link is not valid.');
  return party;
}

/** Derived, not stored: the page's CSRF token is a MAC of its party. */
export const signingCsrfToken = (ctx: AppContext, party: PartyRow) => ctx.secret.mac('sign-csrf', `party:${party.id}`);

export function checkSigningCsrf(ctx: AppContext, req: Request, party: PartyRow): void {
  const given = req.headers[SIGNING_CSRF_HEADER];
  if (typeof given !== 'string' || !ctx.secret.isMacValid('sign-csrf', `party:${party.id}`, given)) {
    throw new AppError('forbidden', 'Reload the signing page and try again.');
  }
}

/** Every request on one signing link counts against that link: guessing codes or flooding answers stops early. */
export function limitLinkRate(ctx: AppContext, party: PartyRow): void {
  const decision = ctx.rateLimiter.take(`sign:${party.id}`, 120, ctx.now());
  if (!decision.isAllowed) {
    const wait = Math.max(1, Math.ceil(((decision.resetAt ?? ctx.now()) - ctx.now()) / 1000));
    throw new AppError('rate-limited', `Too many requests on this link; try again in ${wait} s.`, {
      headers: { 'Retry-After': String(wait) },
    });
  }
}
