import { createSign, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export type TestAccount = { email: string; groups: string[]; given_name?: string; family_name?: string };

export type TestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: SignDesk's callback page. */
  redirectUri: string;
  accounts: Map<string, TestAccount>;
  /** Set: the next ID tokens from the token endpoint have these claims changed, signed again with the provider's key. */
  changeIdToken: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  close(): Promise<void>;
};

export const ID_TOKEN_TTL_SECONDS = 60;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A real OpenID provider (oidc-provider, a certified implementation) on a random loopback port
 * (as `localhost` it is another site than SignDesk's 127.0.0.1, as a real provider is):
 * one confidential client for SignDesk with PKCE required, accounts found by login name with
 * e-mail and a groups claim, its development login and consent pages (any password), and ID
 * tokens valid for 60 s.
 */
export async function startOidcProvider(
  redirectUri: string,
  options: { hostname?: 'localhost' | '127.0.0.1' } = {},
): Promise<TestProvider> {
  const hostname = options.hostname ?? '127.0.0.1';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  // localhost: both loopback addresses, whichever the name resolves to first.
  await new Promise<void>((resolve) =>
    hostname === 'localhost' ? server.listen(0, resolve) : server.listen(0, hostname, resolve),
  );
  const issuer = `http://${hostname}:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  const test: TestProvider = {
    issuer,
    clientId: 'signdesk',
    clientSecret: 'a client secret of the test provider',
    redirectUri,
    accounts,
    changeIdToken: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: test.clientId,
        client_secret: test.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ['a cookie key of the test provider'] },
    claims: { openid: ['sub', 'groups'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    ttl: { IdToken: ID_TOKEN_TTL_SECONDS, AccessToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    findAccount: (_ctx: unknown, id: string) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email_verified: true, ...account }) };
    },
  });
  // A provider gone wrong, or an answer swapped on its way: the same key signs what the test says.
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path !== '/token' || !test.changeIdToken || typeof body?.id_token !== 'string') return;
    const [header, payload] = body.id_token.split('.');
    const claims = test.changeIdToken(JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()));
    const signed = `${header}.${base64url(claims)}`;
    const signature = createSign('RSA-SHA256').update(signed).sign(privateKey).toString('base64url');
    ctx.body = { ...body, id_token: `${signed}.${signature}` };
  });
  provider.on('server_error', (_ctx, error) => console.error('test provider:', error));
  server.on('request', provider.callback());
  return test;
}

/** A cookie jar of one site, as a browser keeps it (paths ignored: the tests use one host per jar). */
export function cookieJar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const index = pair.indexOf('=');
        const name = pair.slice(0, index).trim();
        const value = pair.slice(index + 1).trim();
        const isExpired = /expires=Thu, 01 Jan 1970/i.test(line) || value === '';
        if (isExpired) cookies.delete(name);
        else cookies.set(name, value);
      }
    },
    has: (name: string) => cookies.has(name),
  };
}

/**
 * A person signing in at the provider: the browser follows its redirects, fills the login
 * form with `login` (any password) and presses Continue on the consent page, until the provider
 * sends it to SignDesk's callback. Returns that URL.
 */
export async function signInAtProvider(
  provider: TestProvider,
  authorizationUrl: string,
  login: string,
): Promise<string> {
  const jar = cookieJar();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step += 1) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      headers: { cookie: jar.header(), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form,
      redirect: 'manual',
    });
    jar.keep(response);
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      const next = new URL(location, url).href;
      if (next.startsWith(provider.redirectUri)) return next;
      url = next;
      form = undefined;
      continue;
    }
    const page = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1];
    if (!action) throw new Error(`the provider answered ${response.status} without a form: ${page.slice(0, 300)}`);
    url = new URL(action, url).href;
    form = page.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider never sent the browser back');
}
