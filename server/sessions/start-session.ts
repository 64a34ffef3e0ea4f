import type { AppContext } from '../context/app-context';
import type { AdminSessionRow } from '../db/repos/admin-sessions';
import { hashSessionSecret, newSessionSecret, SESSION_IDLE_MS, SESSION_MAX_MS } from './session-secrets';

export type RequestOrigin = { userAgent: string; ipAddress: string };

export type StartedSession = { secret: string; row: AdminSessionRow };

/** A new session for a user; expired sessions are swept on the way. */
export async function startSession(ctx: AppContext, userId: number, origin: RequestOrigin): Promise<StartedSession> {
  const now = ctx.now();
  await ctx.repos.adminSessions.deleteExpired(now, SESSION_IDLE_MS);
  const secret = newSessionSecret();
  const row = await ctx.repos.adminSessions.insert({
    idHash: hashSessionSecret(secret),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_MAX_MS,
    userAgent: origin.userAgent.slice(0, 500),
    ipAddress: origin.ipAddress.slice(0, 100),
  });
  return { secret, row };
}
