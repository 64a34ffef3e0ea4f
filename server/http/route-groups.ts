/**
 * Routes are grouped by their first two path segments and their depth
 * (`/api/contracts/:contract_id/parties` -> `4 api/contracts`), so a request is matched only
 * against the few routes it could possibly match instead of the whole list in turn.
 *
 * The key is a necessary condition, never a sufficient one: Express still matches each route
 * of the group as before. Route paths are literal segments and `:params` (a param matches one
 * non-empty segment), matching is case-insensitive and allows one trailing slash, as Express's
 * defaults do.
 */
export function groupKeyOfRoute(path: string): string {
  const segments = path.split('/').slice(1);
  const [first, second] = segments;
  const isPlain = segments.every((segment) => /^(?::[A-Za-z_][A-Za-z0-9_]*|[A-Za-z0-9_.-]+)$/.test(segment));
  if (!path.startsWith('/') || !first || !second || first.startsWith(':') || second.startsWith(':') || !isPlain) {
    throw new Error(`route path ${path} must start with two literal segments and hold only literals and :params`);
  }
  return `${segments.length} ${first.toLowerCase()}/${second.toLowerCase()}`;
}

/** The key of the only group whose routes can match `pathname` (or a key no group has). */
export function groupKeyOfRequest(pathname: string): string {
  // One trailing slash is allowed (non-strict routing); it adds no segment.
  const end = pathname.length > 1 && pathname.endsWith('/') ? pathname.length - 1 : pathname.length;
  let depth = 0;
  let secondEnd = -1;
  for (let at = 1; at <= end; at += 1) {
    if (at === end || pathname.charCodeAt(at) === 47 /* / */) {
      depth += 1;
      if (depth === 2) secondEnd = at;
    }
  }
  if (depth < 2) return '';
  return `${depth} ${pathname.slice(1, secondEnd).toLowerCase()}`;
}
