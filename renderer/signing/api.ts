import type { TSigningAccept, TSigningState } from '../../shared/api/signing';
import { adoptSession, dropSession, isFramed, sessionHeaders, switchToHeaderSession } from './link-session';
import { pageLoader } from './page-loader';

/** The signing page's calls: all relative to `/sign/<token>`, the party's only credential. */
export type SigningApi = {
  state(): Promise<TSigningState>;
  sendCode(): Promise<TSigningState>;
  verifyCode(code: string): Promise<TSigningState>;
  accept(body: TSigningAccept): Promise<TSigningState>;
  reject(cause: string): Promise<TSigningState>;
  /** Tells the server the page is open in the party's browser: only this records the opening. */
  opened(): Promise<void>;
  /** The CSRF token the writes send: the newest state's. */
  setCsrfToken(token: string): void;
};

/** A refused call: its HTTP status (0: no answer at all), the server's words, and how long to wait when it said so. */
export class SigningError extends Error {
  /** When the refusal came (ms since the epoch): Retry-After counts from here. */
  readonly receivedAt = Date.now();

  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
  }
}

export function createSigningApi(base: string): SigningApi {
  let csrf = '';
  const call = async (path: string, init?: { method: string; body?: unknown }): Promise<TSigningState> => {
    let response: Response;
    // An answer never waits behind page images: they stop until it is back.
    const release = init ? pageLoader().hold() : () => {};
    try {
      response = await fetch(`${base}${path}`, {
        method: init?.method ?? 'GET',
        headers: {
          ...sessionHeaders(),
          ...(init ? { 'content-type': 'application/json', 'x-signing-csrf': csrf } : {}),
        },
        body: init?.body === undefined ? undefined : JSON.stringify(init.body),
        credentials: 'same-origin',
      });
    } catch {
      release();
      throw new SigningError(0, 'no connection');
    }
    adoptSession(response);
    const data: unknown = await response.json().catch(() => undefined);
    release();
    if (!response.ok) {
      const detail = data && typeof data === 'object' && 'detail' in data ? String(data.detail) : response.statusText;
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new SigningError(
        response.status,
        detail,
        Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
      );
    }
    // Our own server's answer, typed by the shared schema; the page carries no validator (zod
    // would double the bundle phones download).
    return data as TSigningState;
  };
  return {
    state: () => call('/state'),
    sendCode: () => call('/code', { method: 'POST' }),
    verifyCode: async (code) => {
      const state = await call('/code/verify', { method: 'POST', body: { code } });
      if (isFramed()) await settleSession(base);
      return state;
    },
    accept: (body) => call('/accept', { method: 'POST', body }),
    reject: (cause) => call('/reject', { method: 'POST', body: { cause } }),
    opened: async () => {
      try {
        await fetch(`${base}/opened`, {
          method: 'POST',
          headers: { ...sessionHeaders(), 'x-signing-csrf': csrf },
          credentials: 'same-origin',
        });
      } catch {
        // Not recorded this time: the party's next visit reports it.
      }
    },
    setCsrfToken: (token) => {
      csrf = token;
    },
  };
}

/**
 * After the code, in a frame: does the browser send the cookie back (same site, or a
 * partitioned cookie over HTTPS)? A plain request without the page's header tells. If not, the
 * page's own session carries the link from now on (link-session.ts); if so, it is not needed.
 */
async function settleSession(base: string): Promise<void> {
  try {
    const response = await fetch(`${base}/state`, { credentials: 'same-origin', cache: 'no-store' });
    const probe = (await response.json()) as Partial<TSigningState>;
    if (probe.stage === 'needs-code') switchToHeaderSession();
    else dropSession();
  } catch {
    // No answer: assume the worst, the page's own session works either way.
    switchToHeaderSession();
  }
}
