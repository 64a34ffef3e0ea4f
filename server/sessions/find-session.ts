import type { AppContext } from '../context/app-context';
import type { AdminSessionRow } from '../db/repos/admin-sessions';
import type { UserRow } from '../db/repos/users';
import { unlessStorageFull } from '../core/storage-full';
import { hashSessionSecret, SESSION_IDLE_MS, SESSION_TOUCH_MS } from './session-secrets';

export type LiveSession = { row: AdminSessionRow; user: UserRow };

/**
 * The live session a cookie names, or undefined when it names none, or one that ended (idle,
 * past its absolute end, or its user gone or deactivated). An ended session is deleted.
 */
export async function findLiveSession(ctx: AppContext, secret: string): Promise<LiveSession | undefined> {
  if (secret.length > 100) return undefined;
  const row = await ctx.repos.adminSessions.findByHash(hashSessionSecret(secret));
  if (!row) return undefined;
  const now = ctx.now();
  const user = await ctx.repos.users.findById(row.userId);
  const hasEnded = now >= row.expiresAt || now >= row.lastSeenAt + SESSION_IDLE_MS || !user || !user.active;
  if (hasEnded || !user) {
    await ctx.repos.adminSessions.delete(row.id);
    return undefined;
  }
  if (now - row.lastSeenAt >= SESSION_TOUCH_MS) {
    // A hint for the idle timeout: on a full disk the session is used all the same.
    await unlessStorageFull(
      async () => ctx.repos.adminSessions.touch(row.id, now),
      () => ctx.logger.debug({ sessionId: row.id }, 'session not touched: the disk is full'),
    );
    row.lastSeenAt = now;
  }
  return { row, user };
}
