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

/**
 * The user a request (or a job on its behalf) acts as (`Api-User-Uri`; docs/decisions.md,
 * "Accounts"). Made by `actorOf` in server/policies/, the one home of who may do what.
 */
export type Actor = {
  id: number;
  path: string;
  permissionTemplate: PermissionTemplate;
  isAdmin: boolean;
};
