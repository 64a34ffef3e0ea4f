import type { TSetup } from '../../shared/api/session';
import type { AppContext } from '../context/app-context';
import { hashPassword } from '../crypto/password';
import { inTransaction } from '../db/open-database';
import { AppError, validationFailed } from '../core/errors';
import { ACTIVE_ADMINISTRATOR } from '../policies/actors';
import { fingerprintOf, logOfficeEvent } from '../activity/office-log';
import { startSession, type RequestOrigin, type StartedSession } from '../sessions/start-session';

/**
 * The first-run setup: the office's name and e-mail and the first administrator, signed in
 * at once. Open only while no active administrator exists.
 */
export async function runSetup(ctx: AppContext, input: TSetup, origin: RequestOrigin): Promise<StartedSession> {
  const passwordHash = await hashPassword(input.password);
  // Checked inside one IMMEDIATE transaction after the slow hash: two setups cannot both win.
  const userId = await inTransaction(ctx.db, async () => {
    if ((await ctx.repos.users.countMatching(ACTIVE_ADMINISTRATOR)) > 0) {
      throw new AppError('conflict', 'SignDesk is already set up; sign in instead.');
    }
    if (await ctx.repos.users.findByUsername(input.username))
      throw validationFailed([`username: ${input.username} is already taken`]);
    const now = ctx.now();
    const user = await ctx.repos.users.insert({
      username: input.username,
      email: input.email,
      firstname: input.firstname ?? '',
      lastname: input.lastname ?? '',
      passwordHash,
      permissionTemplate: 'CUSTOMER_ADMIN_USER',
      active: true,
      createdAt: now,
    });
    await ctx.repos.office.update({ name: input.office_name, email: input.office_email, setUpAt: now });
    await logOfficeEvent(ctx, {
      event: 'user.created',
      subject: `/api/users/${user.id}`,
      userId: user.id,
      ...origin,
      details: {
        username: user.username,
        permission_template: user.permissionTemplate,
        active: user.active,
        email_sha256: fingerprintOf(user.email),
      },
    });
    return user.id;
  });
  return startSession(ctx, userId, origin);
}
