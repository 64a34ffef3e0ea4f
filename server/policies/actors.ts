import type { PermissionTemplate } from '../../shared/api/enums';
import type { Actor, Principal } from '../core/actor';

/**
 * The one "is an administrator" rule, as data so that the database reads the same rule
 * (db/repos/users.ts's `countMatching`/`firstMatching`): an active user whose permission
 * template is CUSTOMER_ADMIN_USER. The last such user may not go; sign-in links go to the first.
 */
export const ACTIVE_ADMINISTRATOR = { permissionTemplate: 'CUSTOMER_ADMIN_USER', active: true } as const;

/** Whether a permission template is the administrator's. */
export const isAdminTemplate = (permissionTemplate: string): boolean =>
  permissionTemplate === ACTIVE_ADMINISTRATOR.permissionTemplate;

/** The acting-user view of a user row: the request (or a job on its maker's behalf) acts as them. */
export function actorOf(user: { id: number; permissionTemplate: string }): Actor {
  return {
    id: user.id,
    path: `/api/users/${user.id}`,
    permissionTemplate: user.permissionTemplate as PermissionTemplate,
    isAdmin: isAdminTemplate(user.permissionTemplate),
  };
}

/**
 * Whom a request naming user `userId` in `Api-User-Uri` acts as: its token's owner naming
 * itself changes nothing (`owner`); another user only for an administrator's token (`other`,
 * who must be active: the caller checks), else `refused`.
 */
export function actingAs(principal: Principal, userId: number): 'owner' | 'other' | 'refused' {
  if (userId === principal.owner.id) return 'owner';
  return principal.owner.isAdmin ? 'other' : 'refused';
}

/**
 * The owner filter of a list of things an ordinary user sees only their own of (bulk sends;
 * templates add the published ones): undefined, every row, for an administrator.
 */
export const ownerScope = (actor: Actor): number | undefined => (actor.isAdmin ? undefined : actor.id);

/**
 * Whether a change leaves `user` without the administrator's rights it has now (deactivated,
 * deleted or demoted): the office keeps one active administrator at least, so the last one's
 * such change is refused (the caller counts them).
 */
export function losesAdminRights(
  user: { permissionTemplate: string; active: boolean },
  change: { permissionTemplate?: string | undefined; active?: boolean | undefined; isDeleted?: boolean },
): boolean {
  if (!isAdminTemplate(user.permissionTemplate) || user.active !== ACTIVE_ADMINISTRATOR.active) return false;
  if (change.isDeleted || change.active === false) return true;
  return change.permissionTemplate !== undefined && !isAdminTemplate(change.permissionTemplate);
}

/** Whether the actor may see and change a thing made by `createdBy`: an administrator any, a user their own. */
export const isOwnerOrAdmin = (actor: Actor, thing: { createdBy: number }): boolean =>
  actor.isAdmin || thing.createdBy === actor.id;
