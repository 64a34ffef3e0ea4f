import type { TSigningState } from '../../shared/api/signing';

/** What the server put into the page: the state as of the page load, and a checked return URL. */
export type Bootstrap = { state: TSigningState | undefined; returnUrl: string | null };

/** The JSON the server inlines (server/sign/signing-html.ts); a page without it asks for the state. */
export function readBootstrap(): Bootstrap {
  try {
    const element = document.getElementById('signing-bootstrap');
    const data = JSON.parse(element?.textContent ?? 'null') as { state?: unknown; returnUrl?: unknown } | null;
    const state = data?.state && typeof data.state === 'object' ? (data.state as TSigningState) : undefined;
    return { state, returnUrl: typeof data?.returnUrl === 'string' ? data.returnUrl : null };
  } catch {
    return { state: undefined, returnUrl: null };
  }
}

/** The link's own path, `/sign/<token>`, whatever follows it in the address. */
export const linkBase = () => window.location.pathname.replace(/\/+$/, '');
