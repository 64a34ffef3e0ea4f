import type { Request, Response } from 'express';
import {
  SSO_CALLBACK_PATH,
  ZSsoCallbackSchema,
  ZSsoSettingsSchema,
  ZSsoSettingsUpdateSchema,
  ZSsoStartSchema,
  ZSsoStatusSchema,
} from '../../shared/api/sso';
import { ZSessionSchema } from '../../shared/api/session';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { readCookie } from '../http/session-cookie';
import { requestOrigin } from '../activity/log-activity';
import { isSsoReady, readSsoSettings } from '../sessions/sso-settings';
import { SSO_ATTEMPT_MS, SSO_BROWSER_COOKIE } from '../sso/sso-attempts';
import { SSO_STARTS_PER_MINUTE, startSso } from '../sso/start-sso';
import { finishSso } from '../sso/finish-sso';
import { readSsoSettingsView, updateSsoSettings } from '../sso/update-sso-settings';
import { sendNewSession } from './session';

const tag = 'Single sign-on';

/** The binding cookie: only for the callback's route, gone once it has been used. */
const cookieOptions = (req: Request) =>
  ({ httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/api/sso' }) as const;

/** The admin UI's callback page on this listener, as the browser reached it (the office surface). */
const redirectUriOf = (req: Request): string =>
  `${req.protocol}://${req.get('host') ?? 'localhost'}${SSO_CALLBACK_PATH}`;

export const ssoRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/sso',
    operationId: 'getSsoStatus',
    summary: 'Whether the sign-in page offers single sign-on, and by which provider',
    tag,
    access: 'public',
    responses: { 200: { description: 'The sign-in options', schema: ZSsoStatusSchema } },
    handler: async ({ res, ctx }) => {
      const settings = await readSsoSettings(ctx);
      const isReady = isSsoReady(settings);
      sendJson(res, 200, {
        is_enabled: isReady,
        provider_name: isReady ? settings.providerName : '',
        is_password_sign_in_off: isReady && settings.isPasswordSignInOff,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sso/start',
    operationId: 'startSso',
    summary: 'Start a single sign-on: the provider URL to send the browser to',
    description: `Authorization code with PKCE, a one-time state and a nonce. Sets an HttpOnly cookie that binds the sign-in to this browser for ${SSO_ATTEMPT_MS / 60_000} minutes; the provider sends the browser back to ${SSO_CALLBACK_PATH} on this server, which must be registered at the provider as a redirect URI. At most ${SSO_STARTS_PER_MINUTE} a minute from one address (429).`,
    tag,
    access: 'public',
    problemStatuses: [409, 429, 503],
    responses: { 200: { description: 'Where to send the browser', schema: ZSsoStartSchema } },
    handler: async ({ req, res, act }) => {
      const started = await act(startSso, redirectUriOf(req), requestOrigin(req).ipAddress);
      res.cookie(SSO_BROWSER_COOKIE, started.browserSecret, { ...cookieOptions(req), maxAge: SSO_ATTEMPT_MS });
      sendJson(res, 200, { authorization_url: started.authorizationUrl });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/sso/callback',
    operationId: 'finishSso',
    summary: "Finish a single sign-on with the provider's answer: the admin session",
    description:
      'The admin UI posts the URL the provider sent the browser back to. A wrong or used state, a sign-in started in another browser, a code used before, an ID token for another client or an expired one, and a user the claim map gives no access are refused with a problem that says which. Sets the same session cookie as a password sign-in.',
    tag,
    access: 'public',
    body: ZSsoCallbackSchema,
    example: {
      body: { callback_url: 'https://signdesk.office.example/admin/sso-callback?code=the-code&state=the-state' },
    },
    problemStatuses: [401, 403, 409, 503],
    responses: { 201: { description: 'The new session', schema: ZSessionSchema } },
    handler: async ({ req, res, ctx, body, act }) => {
      res.clearCookie(SSO_BROWSER_COOKIE, cookieOptions(req));
      const browserSecret = readCookie(req, SSO_BROWSER_COOKIE);
      const started = await act(finishSso, { callbackUrl: body.callback_url, browserSecret }, requestOrigin(req));
      await sendNewSession(req, res as Response, ctx, started);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/sso',
    operationId: 'getSsoSettings',
    summary: 'Single sign-on through OpenID Connect: provider, claim map, password sign-in',
    tag: 'Settings',
    access: 'admin',
    responses: { 200: { description: 'The settings (the client secret masked)', schema: ZSsoSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await readSsoSettingsView(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/sso',
    operationId: 'updateSsoSettings',
    summary: 'Change the single sign-on settings; the office log records which fields changed',
    tag: 'Settings',
    access: 'admin',
    body: ZSsoSettingsUpdateSchema,
    example: {
      body: {
        is_enabled: true,
        provider_name: 'Entra ID',
        issuer_url: 'https://login.example.com/office',
        client_id: 'signdesk',
        client_secret: 'the client secret',
        claim: 'groups',
        claim_mapping: [{ value: 'signdesk-admins', permission_template: 'CUSTOMER_ADMIN_USER' }],
        user_mode: 'create',
      },
    },
    responses: { 200: { description: 'The settings (the client secret masked)', schema: ZSsoSettingsSchema } },
    handler: async ({ res, body, act, actor }) => sendJson(res, 200, await act(updateSsoSettings, body, actor.id)),
  }),
];
