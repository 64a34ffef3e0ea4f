import * as oidc from 'openid-client';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import type { OutboundPolicy } from '../net/outbound-policy';
import type { SsoSettings } from '../sessions/sso-settings';

const EXCHANGE_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Loopback issuers may be plain HTTP (a provider on this machine); any other must be HTTPS. */
export function isIssuerSchemeAllowed(issuer: URL): boolean {
  if (issuer.protocol === 'https:') return true;
  return issuer.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(issuer.hostname);
}

/**
 * openid-client's requests (discovery, keys, token, userinfo) through the outbound client:
 * the address policy, one deadline, no redirect followed, a bounded answer.
 */
function outboundFetch(outbound: OutboundPolicy): oidc.CustomFetch {
  return async (url, options) => {
    const headers: Record<string, string> = { ...options.headers };
    const method = options.method === 'POST' ? 'POST' : 'GET';
    const body = options.body === undefined || options.body === null ? undefined : String(options.body);
    const answer = await outbound.http.exchange(new URL(url), {
      method,
      headers,
      ...(body === undefined ? {} : { body: new TextEncoder().encode(body) }),
      timeoutMs: EXCHANGE_TIMEOUT_MS,
      maxBytes: MAX_ANSWER_BYTES,
      signal: options.signal ?? undefined,
    });
    if (answer.cut !== undefined) throw new Error(`the provider's answer was cut (${answer.cut})`);
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const each of Array.isArray(value) ? value : [value]) responseHeaders.append(name, each);
    }
    const isBodyless = answer.status === 204 || answer.status === 304;
    return new Response(isBodyless ? null : new Uint8Array(answer.body), {
      status: answer.status,
      headers: responseHeaders,
    });
  };
}

/**
 * The provider's configuration from its discovery document, read again at each sign-in (two
 * requests of an admin, no cache to go stale when the provider rolls its keys). ID token times
 * are judged by SignDesk's own clock (`ctx.now()`), with openid-client's 30 s tolerance.
 */
export async function discoverProvider(
  ctx: Pick<AppContext, 'outbound' | 'now'>,
  settings: SsoSettings,
): Promise<oidc.Configuration> {
  if (settings.issuerUrl === null || settings.clientId === null) {
    throw new AppError('conflict', 'Single sign-on is not set up.');
  }
  const issuer = new URL(settings.issuerUrl);
  const customFetch = outboundFetch(ctx.outbound);
  const metadata: Partial<oidc.ClientMetadata> = {
    [oidc.clockSkew]: Math.round((ctx.now() - Date.now()) / 1000),
  };
  const auth = settings.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(settings.clientSecret);
  try {
    const config = await oidc.discovery(issuer, settings.clientId, metadata, auth, {
      [oidc.customFetch]: customFetch,
      ...(issuer.protocol === 'http:' && isIssuerSchemeAllowed(issuer)
        ? { execute: [oidc.allowInsecureRequests] }
        : {}),
    });
    config[oidc.customFetch] = customFetch;
    return config;
  } catch (error) {
    throw new AppError(
      'service-unavailable',
      `The sign-in provider could not be reached or its discovery document was refused (${(error as Error).message}).`,
    );
  }
}
