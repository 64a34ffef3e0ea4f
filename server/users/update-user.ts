import type { TUserUpdate } from '../../shared/api/users';
import type { AppContext } from '../context/app-context';
import { hashPassword } from '../crypto/password';
import { inTransaction } from '../db/open-database';
import type { UserChanges, UserRow } from '../db/repos/users';
import { AppError, notFound, validationFailed } from '../core/errors';
import { ACTIVE_ADMINISTRATOR, losesAdminRights } from '../policies/actors';
import { fingerprintOf, logOfficeEvent } from '../activity/office-log';
import { assertSeatFree } from '../subscription/allowance';

export async function updateUser(ctx: AppContext, id: number, input: TUserUpdate): Promise<UserRow> {
  const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
  return inTransaction(ctx.db, async () => {
    const current = await ctx.repos.users.findById(id);
    if (!current) throw notFound('user');
    if (
      input.username !== undefined &&
      input.username !== current.username &&
      (await ctx.repos.users.findByUsername(input.username))
    ) {
      throw validationFailed([`username: ${input.username} is already taken`]);
    }
    const losesAdmin = losesAdminRights(current, {
      active: input.active,
      permissionTemplate: input.permission_template,
    });
    if (losesAdmin && (await ctx.repos.users.countMatching(ACTIVE_ADMINISTRATOR)) <= 1) {
      throw new AppError('conflict', 'The last active administrator cannot be deactivated or demoted.');
    }
    // Activated again, the user takes one of the plan's seats.
    if (input.active === true && !current.active) await assertSeatFree(ctx);
    const changes: UserChanges = {};
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    if (input.firstname !== undefined) changes.firstname = input.firstname;
    if (input.lastname !== undefined) changes.lastname = input.lastname;
    if (input.permission_template !== undefined) changes.permissionTemplate = input.permission_template;
    if (input.active !== undefined) changes.active = input.active;
    if (passwordHash !== undefined) changes.passwordHash = passwordHash;
    if (Object.keys(changes).length === 0) return current;
    await logOfficeEvent(ctx, {
      event: 'user.changed',
      subject: `/api/users/${id}`,
      // Which fields changed, and the new role and state; never the password.
      details: {
        fields: Object.keys(changes).sort().join(','),
        permission_template: changes.permissionTemplate,
        active: changes.active,
        // The office's check compares the stored e-mail with the one recorded last.
        email_sha256: changes.email === undefined ? undefined : fingerprintOf(changes.email),
      },
    });
    return (await ctx.repos.users.update(id, changes)) ?? current;
  });
}
