import type { TUserCreate } from '../../shared/api/users';
import type { AppContext } from '../context/app-context';
import { hashPassword } from '../crypto/password';
import type { UserRow } from '../db/repos/users';
import { validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { fingerprintOf, logOfficeEvent } from '../activity/office-log';
import { assertSeatFree } from '../subscription/allowance';

export async function createUser(ctx: AppContext, input: TUserCreate): Promise<UserRow> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  // Checked after the slow hash, so that two concurrent creates cannot both pass.
  if (await ctx.repos.users.findByUsername(input.username)) {
    throw validationFailed([`username: ${input.username} is already taken`]);
  }
  return inTransaction(ctx.db, async () => {
    // An active user takes one of the plan's seats.
    if (input.active ?? true) await assertSeatFree(ctx);
    const user = await insertUser(ctx, input, passwordHash);
    await logOfficeEvent(ctx, {
      event: 'user.created',
      subject: `/api/users/${user.id}`,
      details: {
        username: user.username,
        permission_template: user.permissionTemplate,
        active: user.active,
        email_sha256: fingerprintOf(user.email),
      },
    });
    return user;
  });
}

async function insertUser(ctx: AppContext, input: TUserCreate, passwordHash: string | null): Promise<UserRow> {
  return ctx.repos.users.insert({
    username: input.username,
    email: input.email,
    firstname: input.firstname ?? '',
    lastname: input.lastname ?? '',
    passwordHash,
    permissionTemplate: input.permission_template ?? 'CUSTOMER_USER',
    active: input.active ?? true,
    createdAt: ctx.now(),
  });
}
