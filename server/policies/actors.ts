import type { PermissionTemplate } from '../../shared/api/enums';
import type { Actor } from '../core/actor';

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
