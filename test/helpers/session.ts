import type { ApiResponse } from './server';

/** A browser-like client of the admin session: keeps the cookie, sends the CSRF header on writes. */
export type SessionClient = {
  cookie: string | undefined;
  csrf: string | undefined;
  request: <T = any>(method: string, pathname: string, options?: SessionRequestOptions) => Promise<ApiResponse<T>>;
};

export type SessionRequestOptions = {
  body?: unknown;
  raw?: { data: Uint8Array; contentType: string };
  /** false: leave the CSRF header out. A string: send that instead of the session's. */
  csrf?: boolean | string;
  headers?: Record<string, string>;
};

export function sessionClient(baseUrl: string): SessionClient {
  const client: SessionClient = {
    cookie: undefined,
    csrf: undefined,
    request: async (method, pathname, options = {}) => {
      const headers: Record<string, string> = { 'accept-api-version': '1', ...options.headers };
      if (client.cookie) headers.cookie = client.cookie;
      const isWrite = !['GET', 'HEAD'].includes(method);
      if (isWrite && options.csrf !== false && client.csrf) {
        headers['x-signdesk-csrf'] = typeof options.csrf === 'string' ? options.csrf : client.csrf;
      }
      let body: string | Uint8Array | undefined;
      if (options.raw) {
        body = options.raw.data;
        headers['content-type'] = options.raw.contentType;
      } else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      const response = await fetch(new URL(pathname, baseUrl), { method, headers, body, redirect: 'manual' });
      const setCookie = response.headers.get('set-cookie');
      if (setCookie) {
        const [pair] = setCookie.split(';');
        const value = pair?.split('=')[1] ?? '';
        client.cookie = value === '' ? undefined : pair;
      }
      const type = response.headers.get('content-type') ?? '';
      const isText = type.includes('json') || type.startsWith('text/');
      const buffer = new Uint8Array(await response.arrayBuffer());
      const text = isText ? new TextDecoder().decode(buffer) : '';
      const parsed = type.includes('json') && text.length > 0 ? JSON.parse(text) : isText ? text : buffer;
      if (parsed && typeof parsed === 'object' && 'csrf_token' in parsed) client.csrf = String(parsed.csrf_token);
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
  };
  return client;
}

export async function signInClient(baseUrl: string, username: string, password: string): Promise<SessionClient> {
  const client = sessionClient(baseUrl);
  const response = await client.request('POST', '/api/session', { body: { username, password } });
  if (response.status !== 201) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
  return client;
}
