import type { TUserCreate } from '../../shared/api/users';
import type { AppContext } from '../context/app-context';
import { hashPassword } from '../crypto/password';
import type { UserRow } from '../db/repos/users';
import { validationFailed } from '../core/errors';

export async function createUser(ctx: AppContext, input: TUserCreate): Promise<UserRow> {
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  // Checked after the slow hash, so that two concurrent creates cannot both pass.
  if (ctx.repos.users.findByUsername(input.username)) {
    throw validationFailed([`username: ${input.username} is already taken`]);
  }
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
