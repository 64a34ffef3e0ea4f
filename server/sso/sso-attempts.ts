import { createHash, randomBytes } from 'node:crypto';

/** How long a started sign-in waits for the provider to send the browser back. */
export const SSO_ATTEMPT_MS = 10 * 60 * 1000;

/** The cookie that binds an attempt to the browser that started it (HttpOnly, SameSite=Strict, 10 minutes). */
export const SSO_BROWSER_COOKIE = 'signdesk_sso';

/** The seal's purpose of a stored PKCE verifier. */
export const VERIFIER_PURPOSE = 'sso-code-verifier';

/** 256 random bits, base64url: the binding cookie's value. */
export const newBrowserSecret = (): string => randomBytes(32).toString('base64url');

/** What the database keeps of a state or a binding cookie: their SHA-256, so a copy of it replays neither. */
export const hashSsoSecret = (purpose: 'state' | 'browser', value: string): string =>
  createHash('sha256').update(`signdesk-sso-${purpose}:${value}`).digest('base64url');
