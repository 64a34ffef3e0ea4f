import * as oidc from 'openid-client';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { isSsoReady, readSsoSettings } from '../sessions/sso-settings';
import { discoverProvider } from './sso-client';
import { hashSsoSecret, newBrowserSecret, SSO_ATTEMPT_MS, VERIFIER_PURPOSE } from './sso-attempts';

export type StartedSso = { authorizationUrl: string; browserSecret: string };

/** Starts a minute from one address: each asks the provider for its discovery document and stores a row. */
export const SSO_STARTS_PER_MINUTE = 30;

/**
 * A sign-in at the provider: authorization code with PKCE (S256), a one-time state and a
 * nonce. The state's hash, the sealed verifier and the nonce wait in `sso_attempts` for the
 * callback, bound to this browser by the secret the caller sets as a cookie.
 */
export async function startSso(ctx: AppContext, redirectUri: string, ipAddress: string): Promise<StartedSso> {
  const decision = ctx.rateLimiter.take(`sso-start:${ipAddress}`, SSO_STARTS_PER_MINUTE, ctx.now());
  if (!decision.isAllowed) {
    const seconds = Math.max(1, Math.ceil(((decision.resetAt ?? ctx.now()) - ctx.now()) / 1000));
    throw new AppError('rate-limited', `Too many sign-ins started from here; try again in ${seconds} s.`, {
      headers: { 'Retry-After': String(seconds) },
    });
  }
  const settings = await readSsoSettings(ctx);
  if (!isSsoReady(settings))
    throw new AppError('conflict', 'Single sign-on is not set up; sign in with your password.');
  const config = await discoverProvider(ctx, settings);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const verifier = oidc.randomPKCECodeVerifier();
  const browserSecret = newBrowserSecret();
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    await ctx.repos.ssoAttempts.deleteExpired(now);
    await ctx.repos.ssoAttempts.insert({
      stateHash: hashSsoSecret('state', state),
      browserHash: hashSsoSecret('browser', browserSecret),
      codeVerifier: ctx.secret.seal(VERIFIER_PURPOSE, verifier),
      nonce,
      redirectUri,
      createdAt: now,
      expiresAt: now + SSO_ATTEMPT_MS,
    });
  });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { authorizationUrl: url.href, browserSecret };
}
