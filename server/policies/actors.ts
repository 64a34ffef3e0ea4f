import type { PermissionTemplate } from '../../shared/api/enums';
import type { Actor, Principal } from '../core/actor';

/** The one "is an administrator" rule: the CUSTOMER_ADMIN_USER permission template. */
export const isAdminTemplate = (permissionTemplate: string): boolean => permissionTemplate === 'CUSTOMER_ADMIN_USER';

/** The acting-user view of a user row: the request (or a job on its maker's behalf) acts as them. */
export function actorOf(user: { id: number; permissionTemplate: string }): Actor {
  return {
    id: user.id,
    path: `/api/users/${user.id}`,
    permissionTemplate: user.permissionTemplate as PermissionTemplate,
    isAdmin: isAdminTemplate(user.permissionTemplate),
  };
}

/** `Api-User-Uri` naming another user: only an administrator's token may act as someone else. */
export const mayActAsOthers = (principal: Principal): boolean => principal.owner.isAdmin;

/**
 * The owner filter of a list of things an ordinary user sees only their own of (bulk sends;
 * templates add the published ones): undefined, every row, for an administrator.
 */
export const ownerScope = (actor: Actor): number | undefined => (actor.isAdmin ? undefined : actor.id);

/** Whether the actor may see and change a thing made by `createdBy`: an administrator any, a user their own. */
export const isOwnerOrAdmin = (actor: Actor, thing: { createdBy: number }): boolean =>
  actor.isAdmin || thing.createdBy === actor.id;
