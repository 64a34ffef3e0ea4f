/**
 * What the party surface (PUBLIC_PORT) serves: only what a party or a verifier needs. Checked
 * on the raw request path before Express sees it, as an allow-list: the signing pages and all
 * they load (/sign/...: state, page images, document, attachments, code, accept/reject/delegate, the
 * assets), the verify page and its check, the favicon, the health answer and the ACME HTTP-01
 * challenges. Everything else (the API, the admin UI, the API docs, setup, sessions) is 404.
 *
 * The check is strict on purpose, since Express matches paths case-insensitively and decodes
 * them: a path with a percent-escape, a backslash, a dot segment (`/sign/../api/users`), an
 * empty segment or any character outside the URL-safe set is refused whole. Signing tokens,
 * asset names and ids never need any of them.
 */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/** Exact paths, case-sensitive. */
const EXACT = new Set(['/verify', '/verify/check', '/favicon.ico', '/healthz']);

/** Prefixes whose every path below is public (at least one segment after them). */
const PREFIXES = ['/sign/', '/.well-known/acme-challenge/'];

export const HEALTH_PATH = '/healthz';
export const ACME_CHALLENGE_PREFIX = '/.well-known/acme-challenge/';

/** Whether the party surface serves `pathname` (the request target without its query). */
export function isPublicPath(pathname: string): boolean {
  if (EXACT.has(pathname)) return true;
  const prefix = PREFIXES.find((candidate) => pathname.startsWith(candidate));
  if (!prefix) return false;
  // The prefix's own segments are literal; what follows must be plain segments.
  const rest = pathname.slice(prefix.length);
  if (rest === '') return false;
  const segments = rest.endsWith('/') ? rest.slice(0, -1).split('/') : rest.split('/');
  return segments.every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}
