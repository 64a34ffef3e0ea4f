import type { RequestHandler } from 'express';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { actingAs, actorOf } from '../policies/actors';

const USER_PATH = /^\/api\/users\/([1-9][0-9]{0,15})$/;

/**
 * `Api-User-Uri` picks the user the request acts as. Only an active administrator's token may
 * name another user (who must be active, else 403); any token may name its own owner, which
 * changes nothing. Without it the request acts as the token's owner, whose activity
 * authentication has already checked. A signed-in person is who they are: the admin UI's
 * session never takes the header.
 */
export function resolveActingUser(ctx: AppContext): RequestHandler {
  return async (req, _res, next) => {
    const principal = req.principal;
    if (!principal) {
      next(new AppError('unauthorized', 'Authenticate first.'));
      return;
    }
    const header = req.headers['api-user-uri'];
    if (header === undefined) {
      req.actor = principal.owner;
      next();
      return;
    }
    if (principal.kind === 'session') {
      next(new AppError('forbidden', 'The admin UI acts as the signed-in user; Api-User-Uri is for API tokens.'));
      return;
    }
    const match = typeof header === 'string' ? USER_PATH.exec(header.trim()) : null;
    if (!match?.[1]) {
      next(new AppError('forbidden', 'Api-User-Uri must be a user path of the form /api/users/<id>.'));
      return;
    }
    const userId = Number(match[1]);
    const verdict = actingAs(principal, userId);
    if (verdict === 'owner') {
      req.actor = principal.owner;
      next();
      return;
    }
    if (verdict === 'refused') {
      next(new AppError('forbidden', "Only an administrator's token may act as another user (Api-User-Uri)."));
      return;
    }
    const user = await ctx.repos.users.findActor(userId);
    if (!user || !user.active) {
      next(new AppError('forbidden', `${String(header)} is not an active user.`));
      return;
    }
    req.actor = actorOf(user);
    next();
  };
}
