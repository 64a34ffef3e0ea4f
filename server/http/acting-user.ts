import type { RequestHandler } from 'express';
import type { PermissionTemplate } from '../../shared/api/enums';
import type { AppContext } from '../core/context';
import { AppError } from '../core/errors';

const USER_PATH = /^\/api\/users\/([1-9][0-9]{0,15})$/;

/**
 * `Api-User-Uri` picks the user the request acts as; it must name an active user, else 403.
 * Without it the request acts as the token's owner, who must be active too.
 */
export function resolveActingUser(ctx: AppContext): RequestHandler {
  return (req, _res, next) => {
    const principal = req.principal;
    if (!principal) {
      next(new AppError('unauthorized', 'Authenticate first.'));
      return;
    }
    const header = req.headers['api-user-uri'];
    if (header !== undefined && principal.kind === 'session') {
      // A signed-in person is who they are; acting as someone else is for integrations.
      next(new AppError('forbidden', 'The admin UI acts as the signed-in user; Api-User-Uri is for API tokens.'));
      return;
    }
    let userId = principal.ownerUserId;
    if (header !== undefined) {
      const match = typeof header === 'string' ? USER_PATH.exec(header.trim()) : null;
      if (!match?.[1]) {
        next(new AppError('forbidden', 'Api-User-Uri must be a user path of the form /api/users/<id>.'));
        return;
      }
      userId = Number(match[1]);
    }
    const user = ctx.repos.users.findActor(userId);
    if (!user || !user.active) {
      next(
        new AppError(
          'forbidden',
          header === undefined ? 'The owner of this token is not an active user.' : `${String(header)} is not an active user.`,
        ),
      );
      return;
    }
    const permissionTemplate = user.permissionTemplate as PermissionTemplate;
    req.actor = {
      id: user.id,
      path: `/api/users/${user.id}`,
      permissionTemplate,
      isAdmin: permissionTemplate === 'CUSTOMER_ADMIN_USER',
    };
    next();
  };
}
