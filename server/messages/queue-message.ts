import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { NewOutboxMessage } from '../db/repos/outbox';
import { sealMessageTexts } from './message-bodies';

/**
 * Writes a message and its job in one step: a savepoint when the caller has a transaction open,
 * its own transaction otherwise, so a message never exists without its job. The worker is woken
 * on a later turn of the event loop, after the caller's transaction ends.
 */
export async function queueOutboxMessage(
  ctx: AppContext,
  message: Omit<NewOutboxMessage, 'state' | 'createdAt' | 'updatedAt'>,
): Promise<number> {
  const id = await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    // Subjects and bodies carry signing links and codes: sealed, so that the database alone reveals neither.
    const messageId = await ctx.repos.outbox.insert({
      ...message,
      ...sealMessageTexts(ctx, message),
      state: 'queued',
      createdAt: now,
      updatedAt: now,
    });
    await ctx.repos.jobs.enqueue('outbox', messageId, now, now);
    return messageId;
  });
  ctx.outbox.wake();
  return id;
}
