import type { Request, Response } from 'express';
import { CSRF_HEADER } from '../../shared/api/session';
import type { AppContext } from '../context/app-context';
import { findLiveSession } from '../sessions/find-session';
import { csrfTokenOf, isSameSecret, SESSION_COOKIE, SESSION_RATE_LIMIT } from '../sessions/session-secrets';
import { AppError } from '../core/errors';
import type { PrincipalResolver } from './authenticate';
import { actorOf } from '../policies/actors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}

// req.secure is Express's req.protocol: our own TLS, or X-Forwarded-Proto from a TRUSTED_PROXIES peer only.
const isHttps = (req: Request) => req.secure;

/** HttpOnly, SameSite=Strict, for the whole site (the UI at /admin, the API at /api); Secure over https. */
export function setSessionCookie(req: Request, res: Response, secret: string, expiresAt: number): void {
  res.cookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(req),
    path: '/',
    expires: new Date(expiresAt),
  });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: isHttps(req), path: '/' });
}

/**
 * The admin UI's way to authenticate: the session cookie. A cookie that names no live
 * session is 401 (the UI goes back to sign-in); a write without the session's CSRF header is 403.
 */
export function sessionPrincipalResolver(ctx: AppContext): PrincipalResolver {
  return async (req) => {
    if (!req.headers.cookie) return undefined;
    const secret = readCookie(req, SESSION_COOKIE);
    if (!secret) return undefined;
    const session = await findLiveSession(ctx, secret);
    if (!session) {
      if (req.res) clearSessionCookie(req, req.res);
      throw new AppError('unauthorized', 'Your session has ended; sign in again.');
    }
    if (!SAFE_METHODS.has(req.method)) {
      const presented = req.headers[CSRF_HEADER.toLowerCase()];
      if (typeof presented !== 'string' || !isSameSecret(presented, csrfTokenOf(secret))) {
        throw new AppError(
          'forbidden',
          `Writes made with the admin session need the ${CSRF_HEADER} header of the session.`,
        );
      }
    }
    req.sessionSecret = secret;
    req.sessionId = session.row.id;
    return {
      kind: 'session',
      tokenId: undefined,
      tokenKind: undefined,
      owner: actorOf(session.user),
      rateLimit: SESSION_RATE_LIMIT,
      rateKey: `session:${session.row.id}`,
    };
  };
}

declare module 'express-serve-static-core' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface Request {
    /** The session cookie's secret, set when the session authenticated the request. */
    sessionSecret?: string;
    sessionId?: number;
  }
}
