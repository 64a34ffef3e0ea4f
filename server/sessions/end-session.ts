import type { AppContext } from '../context/app-context';

/** Signing out: the session row goes, so its cookie opens nothing from now on. */
export async function endSession(ctx: AppContext, sessionId: number): Promise<void> {
  await ctx.repos.adminSessions.delete(sessionId);
}
