import { useSyncExternalStore } from 'react';
import { hashLink } from './hash-link';

/**
 * How this page proves that the party entered its one-time code. Opened on its own (or in a
 * frame of the same site) the browser's cookie does it. In a frame of another site, browsers
 * keep no cookie for the page over plain HTTP (and Safari often none at all), so the page holds
 * the session itself: in memory and in the tab's sessionStorage (kept over a reload, partitioned
 * by the framing site, gone with the tab), sent as the `X-Signing-Session` header with its own
 * requests, the page images fetched the same way. Never in a URL, never in localStorage.
 *
 * `mode`: `cookie` until the code's answer shows that no cookie comes back, then `header`.
 * `isStorageBlocked`: the browser refuses this framed page any storage, so a reload asks for a
 * new code and unfinished work is not kept: the page says so and offers a window of its own.
 */
export type LinkSession = { mode: 'cookie' | 'header'; isStorageBlocked: boolean };

const KEY_PREFIX = 'signdesk.session.';
const HEADER = 'x-signing-session';

export function isFramed(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

function canStore(kind: 'sessionStorage' | 'localStorage'): boolean {
  try {
    const store = window[kind];
    store.setItem('signdesk.probe', '1');
    store.removeItem('signdesk.probe');
    return true;
  } catch {
    return false;
  }
}

let token: string | undefined;
let snapshot: LinkSession = { mode: 'cookie', isStorageBlocked: false };
let key = '';
const listeners = new Set<() => void>();
const update = (next: Partial<LinkSession>) => {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
};

/** Reads the session this tab holds for the link (a reload inside a frame). Once, before the first request. */
export function startLinkSession(link: string): void {
  key = KEY_PREFIX + hashLink(link);
  if (!isFramed()) return;
  const isStorageBlocked = !canStore('sessionStorage') || !canStore('localStorage');
  try {
    token = window.sessionStorage.getItem(key) ?? undefined;
  } catch {
    token = undefined;
  }
  update({ isStorageBlocked, mode: token ? 'header' : 'cookie' });
}

/** Whether the page holds a session of its own (then its inlined "needs-code" state may be out of date). */
export const holdsSession = () => token !== undefined;

/** Headers for every request of the page: only a framed page sends (or asks for) its session. */
export function sessionHeaders(): Record<string, string> {
  return isFramed() ? { [HEADER]: token ?? 'none' } : {};
}

/** Keeps the session (new or renewed) an answer carries. */
export function adoptSession(response: Response): void {
  const value = response.headers.get(HEADER);
  if (!value || value === token) return;
  token = value;
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Refused: kept in memory for this visit (isStorageBlocked says so on the page).
  }
}

/** The cookie did not come back after the code: from now on the page's own session carries the link. */
export function switchToHeaderSession(): void {
  if (snapshot.mode === 'header') return;
  update({ mode: 'header' });
  document.addEventListener('click', downloadWithSession, true);
}

/**
 * A link of the page to a file of its own link (the document, an attachment, the signed PDF)
 * cannot carry the header either: in `header` mode such a click fetches the file with it and
 * hands the browser the bytes to save, under the name the server gave.
 */
function downloadWithSession(event: MouseEvent): void {
  const anchor = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[href]') : null;
  const base = `${window.location.origin}${window.location.pathname.replace(/\/+$/, '')}/`;
  if (!anchor || !anchor.href.startsWith(base) || event.defaultPrevented) return;
  event.preventDefault();
  void fetch(anchor.href, { headers: sessionHeaders() })
    .then(async (response) => {
      if (!response.ok) throw new Error(String(response.status));
      const disposition = response.headers.get('content-disposition') ?? '';
      const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
      const name = encoded ? decodeURIComponent(encoded) : /filename="([^"]+)"/i.exec(disposition)?.[1];
      const url = URL.createObjectURL(await response.blob());
      const save = document.createElement('a');
      save.href = url;
      save.download = name ?? (anchor.getAttribute('download') || 'document.pdf');
      document.body.append(save);
      save.click();
      save.remove();
      window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
    })
    // Refused (the session ended): the link in a window of its own, where the code works as usual.
    .catch(() => window.open(window.location.href, '_blank', 'noopener'));
}

/** Forgets the tab's session (the link closed, or the cookie carries it). */
export function dropSession(): void {
  token = undefined;
  try {
    window.sessionStorage.removeItem(key);
  } catch {
    // Nothing kept.
  }
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const useLinkSession = (): LinkSession => useSyncExternalStore(subscribe, () => snapshot);
