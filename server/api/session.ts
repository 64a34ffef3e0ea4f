import type { Request, Response } from 'express';
import {
  ZSessionSchema,
  ZSetupSchema,
  ZSetupStatusSchema,
  ZSignInSchema,
  type TSession,
} from '../../shared/api/session';
import type { RouteContext } from '../http/route';
import type { AdminSessionRow } from '../db/repos/admin-sessions';
import type { UserRow } from '../db/repos/users';
import { AppError, forbidden } from '../core/errors';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { clearSessionCookie, setSessionCookie } from '../http/session-cookie';
import { requestOrigin } from '../activity/log-activity';
import { endSession } from '../sessions/end-session';
import { csrfTokenOf, hashSessionSecret, SESSION_IDLE_MS } from '../sessions/session-secrets';
import { signIn } from '../sessions/sign-in';
import { isPending } from '../sessions/second-step';
import { ZSignInPendingSchema } from '../../shared/api/second-factor';
import { runSetup } from '../setup/run-setup';
import { readMessagingSettings } from '../messages/messaging-settings';
import { ACTIVE_ADMINISTRATOR, isAdminTemplate } from '../policies/actors';

export async function presentSession(
  ctx: RouteContext,
  secret: string,
  row: AdminSessionRow,
  user: UserRow,
): Promise<TSession> {
  const office = await ctx.repos.office.get(ctx.now());
  const messaging = await readMessagingSettings(ctx);
  return {
    user: {
      self: `/api/users/${user.id}`,
      username: user.username,
      firstname: user.firstname,
      lastname: user.lastname,
      email: user.email,
      permission_template: user.permissionTemplate as TSession['user']['permission_template'],
    },
    is_admin: isAdminTemplate(user.permissionTemplate),
    csrf_token: csrfTokenOf(secret),
    created_time: ctx.timestamp(row.createdAt),
    idle_expire_time: ctx.timestamp(Math.min(row.lastSeenAt + SESSION_IDLE_MS, row.expiresAt)),
    expire_time: ctx.timestamp(row.expiresAt),
    office: {
      name: office.name,
      email: office.email,
      is_set_up: office.setUpAt !== null,
      time_zone: ctx.config.timeZone,
    },
    channels: { email: messaging.smtpUrl !== undefined, sms: messaging.smsGatewayUrl !== undefined },
  };
}

/** A session just started (sign-in or first-run setup): its cookie, then the session itself. */
export async function sendNewSession(
  req: Request,
  res: Response,
  ctx: RouteContext,
  started: { secret: string; row: AdminSessionRow },
  /** Fields answered beside the session (the recovery codes of an enrolment at sign-in). */
  extra: Record<string, unknown> = {},
): Promise<void> {
  setSessionCookie(req, res, started.secret, started.row.expiresAt);
  res.setHeader('Location', '/api/session');
  const user = (await ctx.repos.users.findById(started.row.userId)) as UserRow;
  sendJson(res, 201, { ...(await presentSession(ctx, started.secret, started.row, user)), ...extra });
}

const tag = 'Admin session';

export const sessionRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/setup',
    operationId: 'getSetupStatus',
    summary: 'Whether the first-run setup is open (no administrator exists yet)',
    tag,
    access: 'public',
    responses: { 200: { description: 'The setup status', schema: ZSetupStatusSchema } },
    handler: async ({ res, ctx }) => {
      const office = await ctx.repos.office.get(ctx.now());
      sendJson(res, 200, {
        needs_setup: (await ctx.repos.users.countMatching(ACTIVE_ADMINISTRATOR)) === 0,
        office_name: office.name,
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/setup',
    operationId: 'runSetup',
    summary: 'First run: the office and the first administrator, signed in at once',
    description: 'Open only while no active administrator exists; afterwards 409. Sets the session cookie.',
    tag,
    access: 'public',
    body: ZSetupSchema,
    example: {
      body: {
        office_name: 'Office AB',
        office_email: 'office@office.example',
        username: 'admin',
        password: 'a long secret',
        email: 'admin@office.example',
      },
    },
    responses: { 201: { description: 'The new session', schema: ZSessionSchema } },
    handler: async ({ req, res, ctx, body, act }) => {
      await sendNewSession(req, res, ctx, await act(runSetup, body, requestOrigin(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/session',
    operationId: 'signIn',
    summary: 'Sign in to the admin UI with a username and password',
    description:
      'Sets an HttpOnly, SameSite=Strict session cookie. Writes made with it must carry the header X-SignDesk-CSRF with the csrf_token of the response. Failed tries are limited per username and per address (429). A user with an authenticator app (or who must set one up) gets 202 and no cookie: the sign-in continues at POST /api/session/second-factor (or /api/session/enrolment).',
    tag,
    access: 'public',
    body: ZSignInSchema,
    example: { body: { username: 'admin', password: 'a long secret' } },
    responses: {
      201: { description: 'The new session', schema: ZSessionSchema },
      202: { description: 'The password is right; a second step is owed', schema: ZSignInPendingSchema },
    },
    handler: async ({ req, res, ctx, body, act }) => {
      const result = await act(signIn, body, requestOrigin(req));
      if (!isPending(result)) return sendNewSession(req, res, ctx, result);
      sendJson(res, 202, {
        second_factor: result.step,
        pending_token: result.pendingToken,
        expire_time: ctx.timestamp(result.expiresAt),
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/session',
    operationId: 'getSession',
    summary: 'The signed-in session: who, until when, and its CSRF token',
    tag,
    access: 'user',
    responses: { 200: { description: 'The session', schema: ZSessionSchema } },
    handler: async ({ req, res, ctx }) => {
      const secret = req.sessionSecret;
      const row = secret ? await ctx.repos.adminSessions.findByHash(hashSessionSecret(secret)) : undefined;
      if (!secret || !row) throw forbidden('This is the admin UI session; API tokens have none.');
      const user = await ctx.repos.users.findById(row.userId);
      if (!user) throw new AppError('unauthorized', 'Your session has ended; sign in again.');
      sendJson(res, 200, await presentSession(ctx, secret, row, user));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/session',
    operationId: 'signOut',
    summary: 'Sign out: the session ends and its cookie is cleared',
    tag,
    access: 'user',
    responses: { 204: { description: 'Signed out' } },
    handler: async ({ req, res, act }) => {
      if (req.sessionId === undefined) throw forbidden('This is the admin UI session; API tokens have none.');
      await act(endSession, req.sessionId);
      clearSessionCookie(req, res);
      res.status(204).end();
    },
  }),
];
