import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { AppError, notFound } from '../core/errors';
import { ACTIVE_ADMINISTRATOR, losesAdminRights } from '../policies/actors';
import { logOfficeEvent } from '../activity/office-log';

/**
 * Users are soft-deleted: contracts and templates keep a `created_by` that says who made them.
 * The user's API tokens are revoked with it, and the last active administrator stays.
 */
export async function deleteUser(ctx: AppContext, id: number): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const user = await ctx.repos.users.findById(id);
    if (!user) throw notFound('user');
    if (
      losesAdminRights(user, { isDeleted: true }) &&
      (await ctx.repos.users.countMatching(ACTIVE_ADMINISTRATOR)) <= 1
    ) {
      throw new AppError('conflict', 'The last active administrator cannot be deleted.');
    }
    const now = ctx.now();
    await ctx.repos.users.softDelete(id, now);
    await ctx.repos.tokens.revokeAllOf(id, now);
    await logOfficeEvent(ctx, {
      event: 'user.deleted',
      subject: `/api/users/${id}`,
      details: { username: user.username },
    });
  });
}
