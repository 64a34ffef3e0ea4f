import type { PermissionTemplate, TokenKind } from '../../shared/api/enums';

/** Who is calling: a token, or (for the admin UI) a signed-in session. */
export type Principal = {
  kind: 'token' | 'session';
  tokenId: number | undefined;
  tokenKind: TokenKind | undefined;
  /** The user the request acts as when it carries no Api-User-Uri. */
  ownerUserId: number;
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

declare module 'express-serve-static-core' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Request {
    principal?: Principal;
    actor?: Actor;
  }
}
