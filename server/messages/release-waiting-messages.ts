import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { readMessagingSettings } from './messaging-settings';

/**
 * Messages that waited for an SMTP server or SMS gateway go back in the queue once their channel
 * is configured: after a settings change, and at start-up (the environment may have changed).
 * Returns how many were released.
 */
export async function releaseWaitingMessages(ctx: AppContext): Promise<number> {
  return inTransaction(ctx.db, async () => {
    const settings = await readMessagingSettings(ctx);
    const now = ctx.now();
    let released = 0;
    const channels = [
      ['email', settings.smtpUrl],
      ['sms', settings.smsGatewayUrl],
    ] as const;
    for (const [channel, target] of channels) {
      if (target === undefined) continue;
      for (const id of await ctx.repos.outbox.wakeWaiting(channel, now)) {
        await ctx.repos.jobs.enqueue('outbox', id, now, now);
        released += 1;
      }
    }
    return released;
  });
}
