import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a session lives: ended when unused for 8 hours, and after 24 hours in any case. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 24 * 60 * 60 * 1000;
/** last_seen_at is written at most once a minute per session. */
export const SESSION_TOUCH_MS = 60 * 1000;
/** Requests a minute of one session: the UI polls while a page is open. */
export const SESSION_RATE_LIMIT = 600;
export const SESSION_COOKIE = 'signdesk_session';

const digest = (purpose: string, secret: string) =>
  createHash('sha256').update(`${purpose}:${secret}`).digest('base64url');

/** 256 random bits: the cookie value, never stored. */
export const newSessionSecret = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a session secret. */
export const hashSessionSecret = (secret: string): string => digest('signdesk-session', secret);

/**
 * The session's CSRF token, derived from its secret: the page reads it from /api/session
 * (other sites cannot), and a database copy cannot produce it.
 */
export const csrfTokenOf = (secret: string): string => digest('signdesk-csrf', secret);

/** Constant-time equality of two strings of any length. */
export function isSameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}
