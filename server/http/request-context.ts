import type { Actor, Principal } from '../core/actor';

declare module 'express-serve-static-core' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Request {
    principal?: Principal;
    actor?: Actor;
    /** The `Request-Id` every answer carries (api-entry.ts); log lines about the request name it. */
    requestId?: string;
  }
}
