import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { AppError, notFound } from '../core/errors';
import { isAdminTemplate } from '../policies/actors';
import { logOfficeEvent } from '../activity/office-log';

/**
 * Users are soft-deleted: contracts and templates keep a `created_by` that says who made them.
 * The user's API tokens are revoked with it, and the last active administrator stays.
 */
export function deleteUser(ctx: AppContext, id: number): void {
  inTransaction(ctx.db, () => {
    const user = ctx.repos.users.findById(id);
    if (!user) throw notFound('user');
    if (isAdminTemplate(user.permissionTemplate) && user.active && ctx.repos.users.countActiveAdmins() <= 1) {
      throw new AppError('conflict', 'The last active administrator cannot be deleted.');
    }
    const now = ctx.now();
    ctx.repos.users.softDelete(id, now);
    ctx.repos.tokens.revokeAllOf(id, now);
    logOfficeEvent(ctx, { event: 'user.deleted', subject: `/api/users/${id}`, details: { username: user.username } });
  });
}
