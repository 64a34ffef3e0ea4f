import { ZSigningStateSchema, type TSigningAccept, type TSigningState } from '../../shared/api/signing';

/** The signing page's calls: all relative to `/sign/<token>`, the party's only credential. */
export type SigningApi = {
  state(): Promise<TSigningState>;
  sendCode(): Promise<TSigningState>;
  verifyCode(code: string): Promise<TSigningState>;
  accept(body: TSigningAccept): Promise<TSigningState>;
  reject(cause: string): Promise<TSigningState>;
};

export class SigningError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function createSigningApi(base: string, csrf: () => string): SigningApi {
  const call = async (path: string, init?: { method: string; body?: unknown }): Promise<TSigningState> => {
    const response = await fetch(`${base}${path}`, {
      method: init?.method ?? 'GET',
      headers: init ? { 'content-type': 'application/json', 'x-signing-csrf': csrf() } : {},
      body: init?.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
    });
    const data: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const detail = data && typeof data === 'object' && 'detail' in data ? String(data.detail) : response.statusText;
      throw new SigningError(response.status, detail);
    }
    return ZSigningStateSchema.parse(data);
  };
  return {
    state: () => call('/state'),
    sendCode: () => call('/code', { method: 'POST' }),
    verifyCode: (code) => call('/code/verify', { method: 'POST', body: { code } }),
    accept: (body) => call('/accept', { method: 'POST', body }),
    reject: (cause) => call('/reject', { method: 'POST', body: { cause } }),
  };
}
