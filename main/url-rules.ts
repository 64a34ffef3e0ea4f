/**
 * Where the window may go. URLs are classified with the URL parser, never by substring: the
 * app is exactly the local server's origin; https pages elsewhere open in the system browser;
 * everything else (file:, javascript:, data:, http elsewhere, credentials in the URL) is refused.
 */
export type UrlClass = 'app' | 'external' | 'blocked';

export function classifyUrl(raw: string, appOrigin: string | undefined): UrlClass {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'blocked';
  }
  if (url.username !== '' || url.password !== '') return 'blocked';
  if (appOrigin !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === appOrigin)
    return 'app';
  if (url.protocol === 'https:' && url.hostname !== '') return 'external';
  return 'blocked';
}

export type NavigationDecision = { allow: true } | { allow: false; openExternal?: string };

/** `will-navigate`, `will-redirect`, `will-frame-navigate`. */
export function decideNavigation(raw: string, appOrigin: string | undefined): NavigationDecision {
  switch (classifyUrl(raw, appOrigin)) {
    case 'app':
      return { allow: true };
    case 'external':
      return { allow: false, openExternal: new URL(raw).href };
    case 'blocked':
      return { allow: false };
  }
}

export type WindowOpenDecision = 'child-window' | 'system-browser' | 'deny';

/** `setWindowOpenHandler`: the app's own pages in a hardened child window, https outside in the browser. */
export function decideWindowOpen(raw: string, appOrigin: string | undefined): WindowOpenDecision {
  switch (classifyUrl(raw, appOrigin)) {
    case 'app':
      return 'child-window';
    case 'external':
      return 'system-browser';
    case 'blocked':
      return 'deny';
  }
}

/** Only the app's pages may call the preload's API (checked again in main for every call). */
export function isTrustedSender(frameUrl: string | undefined, appOrigin: string | undefined): boolean {
  return frameUrl !== undefined && classifyUrl(frameUrl, appOrigin) === 'app';
}

/** The app asks the OS for nothing but clipboard writes (copying an API key or an address). */
const GRANTED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

export function decidePermission(
  permission: string,
  requestingUrl: string | undefined,
  appOrigin: string | undefined,
): boolean {
  return GRANTED_PERMISSIONS.has(permission) && isTrustedSender(requestingUrl, appOrigin);
}
