import type { Request } from 'express';
import {
  ZEnrolledSessionSchema,
  ZPendingEnrolmentSchema,
  ZRecoveryCodesSchema,
  ZSecondFactorSchema,
  ZSignInSettingsSchema,
  ZSignInSettingsUpdateSchema,
  ZTotpConfirmSchema,
  ZTotpEnrolmentSchema,
  ZTotpRemoveSchema,
  ZTotpStatusSchema,
  type TTotpEnrolment,
} from '../../shared/api/second-factor';
import { ZSessionSchema } from '../../shared/api/session';
import type { Principal } from '../core/actor';
import { AppError, forbidden } from '../core/errors';
import type { UserRow } from '../db/repos/users';
import { defineRoute, sendJson, type AnyRoute, type RouteContext } from '../http/route';
import { requestOrigin } from '../activity/log-activity';
import {
  confirmTotpEnrolment,
  removeOwnSecondFactor,
  startTotpEnrolment,
  type TotpEnrolment,
} from '../sessions/second-factor';
import { completeSignIn, confirmEnrolmentAtSignIn, startEnrolmentAtSignIn } from '../sessions/second-step';
import { isTwoFactorRequired, setTwoFactorRequired } from '../sessions/two-factor-rule';
import { sendNewSession } from './session';

const tag = 'Admin session';

const presentEnrolment = (enrolment: TotpEnrolment): TTotpEnrolment => ({
  secret: enrolment.secret,
  otpauth_uri: enrolment.otpauthUri,
  qr_code_svg: enrolment.qrCodeSvg,
});

/** The signed-in user of an admin UI session: a second factor is a person's, never an API token's. */
async function sessionUser(ctx: RouteContext, req: Request, principal: Principal): Promise<UserRow> {
  if (req.sessionId === undefined || principal.kind !== 'session')
    throw forbidden('A second factor belongs to a signed-in person; API tokens have none.');
  const user = await ctx.repos.users.findById(principal.owner.id);
  if (!user) throw new AppError('unauthorized', 'Your session has ended; sign in again.');
  return user;
}

const confirmExample = { body: { code: '123456' } };

export const secondFactorRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/session/second-factor',
    operationId: 'signInSecondFactor',
    summary: 'Second step of signing in: a code from the authenticator app, or a recovery code',
    description:
      'After POST /api/session answered 202 with second_factor totp. A code is taken once; a recovery code works once. Failed tries count with the password’s (429). Sets the session cookie.',
    tag,
    access: 'public',
    body: ZSecondFactorSchema,
    example: { body: { pending_token: 'sealed:v1:…', code: '123456' } },
    responses: { 201: { description: 'The new session', schema: ZSessionSchema } },
    handler: async ({ req, res, ctx, body, act }) => {
      await sendNewSession(req, res, ctx, await act(completeSignIn, body, requestOrigin(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/session/enrolment',
    operationId: 'startEnrolmentAtSignIn',
    summary: 'Signing in where two factors are required: a new authenticator-app secret to set up',
    description: 'After POST /api/session answered 202 with second_factor enrol.',
    tag,
    access: 'public',
    body: ZPendingEnrolmentSchema,
    example: { body: { pending_token: 'sealed:v1:…' } },
    responses: { 200: { description: 'The secret, its URI and QR code', schema: ZTotpEnrolmentSchema } },
    handler: async ({ res, body, act }) =>
      sendJson(res, 200, presentEnrolment(await act(startEnrolmentAtSignIn, body))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/session/enrolment/confirm',
    operationId: 'confirmEnrolmentAtSignIn',
    summary: 'Signing in where two factors are required: the app’s first code; the session and the recovery codes',
    tag,
    access: 'public',
    body: ZSecondFactorSchema,
    example: { body: { pending_token: 'sealed:v1:…', code: '123456' } },
    responses: {
      201: { description: 'The new session and the recovery codes, shown once', schema: ZEnrolledSessionSchema },
    },
    handler: async ({ req, res, ctx, body, act }) => {
      const { started, recoveryCodes } = await act(confirmEnrolmentAtSignIn, body, requestOrigin(req));
      await sendNewSession(req, res, ctx, started, { recovery_codes: recoveryCodes });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/session/totp',
    operationId: 'getTotpStatus',
    summary: 'Whether the signed-in user has an authenticator app set up',
    tag,
    access: 'user',
    responses: { 200: { description: 'The status', schema: ZTotpStatusSchema } },
    handler: async ({ req, res, ctx, principal }) => {
      const user = await sessionUser(ctx, req, principal);
      const row = await ctx.repos.secondFactors.findTotp(user.id);
      const isEnabled = row?.confirmedAt != null;
      sendJson(res, 200, {
        is_enabled: isEnabled,
        enabled_time: isEnabled && row?.confirmedAt ? ctx.timestamp(row.confirmedAt) : null,
        recovery_codes_left: isEnabled ? await ctx.repos.secondFactors.countUnusedRecoveryCodes(user.id) : 0,
        is_required: await isTwoFactorRequired(ctx),
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/session/totp',
    operationId: 'startTotpEnrolment',
    summary: 'Set up an authenticator app: a new secret, its otpauth URI and QR code',
    description: 'Nothing changes at sign-in until POST /api/session/totp/confirm takes a code of it.',
    tag,
    access: 'user',
    responses: { 200: { description: 'The secret, its URI and QR code', schema: ZTotpEnrolmentSchema } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, act, principal }) => {
      const user = await sessionUser(ctx, req, principal);
      sendJson(res, 200, presentEnrolment(await act(startTotpEnrolment, user)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/session/totp/confirm',
    operationId: 'confirmTotpEnrolment',
    summary: 'Turn the authenticator app on with its first code; answers the ten recovery codes, shown once',
    tag,
    access: 'user',
    body: ZTotpConfirmSchema,
    example: confirmExample,
    responses: { 200: { description: 'The recovery codes', schema: ZRecoveryCodesSchema } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, body, act, principal }) => {
      const user = await sessionUser(ctx, req, principal);
      const codes = await act(confirmTotpEnrolment, user, body.code, requestOrigin(req));
      sendJson(res, 200, { recovery_codes: codes });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/session/totp/remove',
    operationId: 'removeTotp',
    summary: 'Turn the authenticator app off, with a current code or the password',
    tag,
    access: 'user',
    body: ZTotpRemoveSchema,
    example: { body: { password: 'a long secret' } },
    responses: { 204: { description: 'Turned off; the recovery codes are gone too' } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, body, act, principal }) => {
      await act(removeOwnSecondFactor, await sessionUser(ctx, req, principal), body, requestOrigin(req));
      res.status(204).end();
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/settings/sign-in',
    operationId: 'getSignInSettings',
    summary: 'How staff sign in: whether two factors are required of everyone',
    tag: 'Settings',
    access: 'admin',
    responses: { 200: { description: 'The settings', schema: ZSignInSettingsSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, { require_two_factors: await isTwoFactorRequired(ctx) }),
  }),
  defineRoute({
    method: 'put',
    path: '/api/settings/sign-in',
    operationId: 'updateSignInSettings',
    summary: 'Require two factors of everyone (or not); staff without one set it up at their next sign-in',
    tag: 'Settings',
    access: 'admin',
    body: ZSignInSettingsUpdateSchema,
    example: { body: { require_two_factors: true } },
    responses: { 200: { description: 'The settings', schema: ZSignInSettingsSchema } },
    handler: async ({ req, res, body, act, actor }) => {
      const isRequired = await act(setTwoFactorRequired, body.require_two_factors, {
        ...requestOrigin(req),
        userId: actor.id,
      });
      sendJson(res, 200, { require_two_factors: isRequired });
    },
  }),
];
