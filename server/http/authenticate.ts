import type { RequestHandler } from 'express';
import type { TokenKind } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { isSecretValid, parseAuthorization } from '../crypto/api-key';
import { AppError } from '../core/errors';
import { unlessStorageFull } from '../core/storage-full';
import type { Principal } from '../core/actor';
import { actorOf } from '../policies/actors';

/** A way other than an API token to say who is calling (the admin UI's session cookie). */
export type PrincipalResolver = (req: Parameters<RequestHandler>[0]) => Promise<Principal | undefined>;

const TOUCH_INTERVAL_MS = 60_000;

/**
 * `Authorization: token <public_id>:<secret>` (docs/decisions.md, "API conventions"). A missing, malformed,
 * unknown, revoked or wrong key is 401 and says no more than that.
 */
export function authenticate(ctx: AppContext, resolvers: readonly PrincipalResolver[] = []): RequestHandler {
  const lastTouched = new Map<number, number>();
  return async (req, _res, next) => {
    const header = req.headers.authorization;
    if (!header) {
      for (const resolve of resolvers) {
        const principal = await resolve(req);
        if (principal) {
          req.principal = principal;
          next();
          return;
        }
      }
      next(new AppError('unauthorized', 'Send the header Authorization: token <public_id>:<secret>.'));
      return;
    }
    const credentials = parseAuthorization(header);
    if (!credentials) {
      next(new AppError('unauthorized', 'The Authorization header must be of the form token <public_id>:<secret>.'));
      return;
    }
    const token = await ctx.repos.tokens.findForAuth(credentials.publicId);
    const isValid = isSecretValid(credentials.secret, token?.secretHash);
    if (!token || !isValid || token.revokedAt !== null) {
      next(new AppError('unauthorized', 'The API key is not valid, or it was revoked.'));
      return;
    }
    // A deactivated (or deleted) user's keys stop working, like revoked ones. Cached read: it
    // costs a map lookup per request, and user changes in this process clear the cache.
    const owner = await ctx.repos.users.findActor(token.ownerUserId);
    if (!owner || !owner.active) {
      next(new AppError('unauthorized', 'The API key belongs to a user who is no longer active.'));
      return;
    }
    const now = ctx.now();
    // last_used_time is a hint for the admin, not an audit: one write a minute per token.
    if (now - (lastTouched.get(token.id) ?? 0) > TOUCH_INTERVAL_MS) {
      lastTouched.set(token.id, now);
      await unlessStorageFull(
        async () => ctx.repos.tokens.markUsed(token.id, now),
        () => ctx.logger.debug({ tokenId: token.id }, 'last_used_time not written: the disk is full'),
      );
    }
    req.principal = {
      kind: 'token',
      tokenId: token.id,
      tokenKind: token.kind as TokenKind,
      owner: actorOf(owner),
      rateLimit: token.rateLimit ?? (await ctx.repos.office.get(now)).defaultRateLimit,
      rateKey: `token:${token.id}`,
    };
    next();
  };
}
