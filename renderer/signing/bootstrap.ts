import type { TSigningState } from '../../shared/api/signing';
import { isLanguage } from '../../shared/i18n/languages';
import type { SigningTexts } from './i18n';

/** What the server put into the page: the state as of the page load, a checked return URL and the first screen's texts. */
export type Bootstrap = { state: TSigningState | undefined; returnUrl: string | null; texts: SigningTexts | undefined };

/** The JSON the server inlines (server/sign/signing-html.ts); a page without it asks for the state. */
export function readBootstrap(): Bootstrap {
  try {
    const element = document.getElementById('signing-bootstrap');
    const data = JSON.parse(element?.textContent ?? 'null') as {
      state?: unknown;
      returnUrl?: unknown;
      texts?: { language?: unknown; messages?: unknown };
    } | null;
    const state = data?.state && typeof data.state === 'object' ? (data.state as TSigningState) : undefined;
    const texts =
      isLanguage(data?.texts?.language) && data.texts.messages && typeof data.texts.messages === 'object'
        ? { language: data.texts.language, messages: data.texts.messages as Record<string, string> }
        : undefined;
    return { state, returnUrl: typeof data?.returnUrl === 'string' ? data.returnUrl : null, texts };
  } catch {
    return { state: undefined, returnUrl: null, texts: undefined };
  }
}

/** The link's own path, `/sign/<token>`, whatever follows it in the address. */
export const linkBase = () => window.location.pathname.replace(/\/+$/, '');
