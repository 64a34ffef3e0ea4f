import type { PermissionTemplate, TokenKind } from '../../shared/api/enums';

/** Who is calling: a token, or (for the admin UI) a signed-in session. */
export type Principal = {
  kind: 'token' | 'session';
  tokenId: number | undefined;
  tokenKind: TokenKind | undefined;
  /** The token's owner (or the signed-in user), active when authenticated: the request acts as them unless Api-User-Uri says otherwise. */
  owner: Actor;
  rateLimit: number;
  rateKey: string;
};

/** The user a request acts as (`Api-User-Uri`; docs/decisions.md, "Accounts"). */
export type Actor = {
  id: number;
  path: string;
  permissionTemplate: PermissionTemplate;
  isAdmin: boolean;
};

/** The acting-user view of a user row. */
export function actorOf(user: { id: number; permissionTemplate: string }): Actor {
  const permissionTemplate = user.permissionTemplate as PermissionTemplate;
  return {
    id: user.id,
    path: `/api/users/${user.id}`,
    permissionTemplate,
    isAdmin: permissionTemplate === 'CUSTOMER_ADMIN_USER',
  };
}

declare module 'express-serve-static-core' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Request {
    principal?: Principal;
    actor?: Actor;
    /** The `Request-Id` every answer carries (api-entry.ts); log lines about the request name it. */
    requestId?: string;
  }
}
