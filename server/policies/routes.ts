import type { Actor, Principal } from '../core/actor';
import { forbidden } from '../core/errors';

/**
 * Who may call a route: `user` any active acting user (an ordinary user reaches only their own
 * contracts and the templates they may see: the other policies here decide), `admin` a
 * CUSTOMER_ADMIN_USER, `partner` an administrator's partner token (or a signed-in
 * administrator in the admin UI), `public` anyone: only signing in (password or single sign-on)
 * and the first-run setup, which cannot have a token yet.
 */
export type Access = 'user' | 'admin' | 'partner' | 'public';

/** A route's access level against the caller (403 when it falls short); `public` asks nothing. */
export function authorizeRoute(access: Access, principal: Principal, actor: Actor): void {
  if (access === 'admin' && !actor.isAdmin) {
    throw forbidden('This needs an administrator (permission_template CUSTOMER_ADMIN_USER).');
  }
  if (access === 'partner') {
    // Partner tokens administer tokens and the office: an ordinary user's one could mint an administrator's key.
    const isPartnerToken = principal.kind === 'token' && principal.tokenKind === 'partner' && principal.owner.isAdmin;
    const isAdminSession = principal.kind === 'session' && actor.isAdmin;
    if (!isPartnerToken && !isAdminSession)
      throw forbidden('The partner API needs a partner API token of an administrator.');
  }
}

/** In the customer API a partner token acts like a customer token, except that it cannot create webhook consumers. */
export function authorizeWebhookCreation(principal: Principal): void {
  if (principal.kind === 'token' && principal.tokenKind === 'partner') {
    throw forbidden('A partner token cannot create webhook consumers; use a customer API token.');
  }
}
