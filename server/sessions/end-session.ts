import type { AppContext } from '../context/app-context';

/** Signing out: the session row goes, so its cookie opens nothing from now on. */
export function endSession(ctx: AppContext, sessionId: number): void {
  ctx.repos.adminSessions.delete(sessionId);
}
