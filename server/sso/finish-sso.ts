import * as oidc from 'openid-client';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { inTransaction } from '../db/open-database';
import { isSsoReady, readSsoSettings } from '../sessions/sso-settings';
import { startSession, type RequestOrigin, type StartedSession } from '../sessions/start-session';
import { discoverProvider } from './sso-client';
import { hashSsoSecret, VERIFIER_PURPOSE } from './sso-attempts';
import { userForClaims, type SsoClaims } from './sso-user';

const refused = (detail: string) => new AppError('unauthorized', detail);

/** openid-client's refusals in words an office can act on; the cause is logged, never shown. */
function describeRefusal(error: unknown): AppError {
  if (error instanceof oidc.AuthorizationResponseError) {
    return refused(`The sign-in provider refused the sign-in: ${error.error_description ?? error.error}.`);
  }
  if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') {
    return refused('The sign-in provider refused the sign-in code: it was used already or has expired. Sign in again.');
  }
  if (error instanceof oidc.ResponseBodyError) {
    return refused(`The sign-in provider refused the sign-in (${error.error}); check the client id and secret.`);
  }
  const code = (error as { code?: string }).code;
  const claim = ((error as { cause?: { cause?: { claim?: string } } }).cause?.cause ?? {}).claim;
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED' && claim === 'aud') {
    return refused("The ID token was made for another client, not this office's client id; no access.");
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && claim === 'exp') {
    return refused("The ID token has expired; sign in again (or check this server's clock).");
  }
  return refused(`The sign-in provider's answer was refused: ${(error as Error).message}.`);
}

/**
 * The provider's callback: the attempt of its state is taken (deleted) first, so a state works
 * once, and must have been started in this browser; then openid-client redeems the code with
 * the PKCE verifier and checks the ID token (signature, issuer, audience, expiry, nonce).
 * The user it names gets the same admin session a password sign-in gives.
 */
export async function finishSso(
  ctx: AppContext,
  input: { callbackUrl: string; browserSecret: string | undefined },
  origin: RequestOrigin,
): Promise<StartedSession> {
  const answer = new URL(input.callbackUrl);
  const state = answer.searchParams.get('state');
  const attempt = state ? await ctx.repos.ssoAttempts.take(hashSsoSecret('state', state)) : undefined;
  if (!state || !attempt || attempt.expiresAt < ctx.now()) {
    throw refused(
      'This sign-in is unknown, was used already or took too long (the state does not match); sign in again.',
    );
  }
  if (input.browserSecret === undefined || hashSsoSecret('browser', input.browserSecret) !== attempt.browserHash) {
    throw refused('This sign-in was started in another browser; sign in again here.');
  }
  const verifier = ctx.secret.open(VERIFIER_PURPOSE, attempt.codeVerifier);
  const settings = await readSsoSettings(ctx);
  if (!isSsoReady(settings) || verifier === undefined) throw new AppError('conflict', 'Single sign-on is not set up.');
  const config = await discoverProvider(ctx, settings);
  // The answer as it arrived at the redirect URI the attempt sent (its parameters only are the provider's).
  const current = new URL(attempt.redirectUri);
  current.search = answer.search;
  let claims: SsoClaims;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: attempt.nonce,
      idTokenExpected: true,
    });
    claims = { ...(tokens.claims() as SsoClaims) };
    if ((claims.email === undefined || claims[settings.claim] === undefined) && tokens.access_token) {
      // Some providers put e-mail and groups only in userinfo; the ID token's own claims win.
      const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      claims = { ...info, ...claims };
    }
  } catch (error) {
    const refusal = describeRefusal(error);
    ctx.logger.info({ err: error, detail: refusal.message }, 'single sign-on refused');
    throw refusal;
  }
  return inTransaction(ctx.db, async () => {
    const user = await userForClaims(ctx, settings, claims);
    return startSession(ctx, user.id, origin);
  });
}
