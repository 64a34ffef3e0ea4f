import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { OutboxMessageRow } from '../db/repos/outbox';
import { AppError, notFound } from '../core/errors';

/**
 * An administrator's retry of a failed or bounced message: the addresses that did not get it
 * are pending again, with a fresh retry schedule. Addresses already sent to are not sent again.
 */
export async function retryOutboxMessage(ctx: AppContext, id: number): Promise<OutboxMessageRow> {
  const row = await inTransaction(ctx.db, async () => {
    const found = await ctx.repos.outbox.findById(id);
    if (!found) throw notFound('outbox message');
    if (found.state !== 'failed' && found.state !== 'bounced') {
      throw new AppError('conflict', `Only a failed or bounced message can be retried; this one is ${found.state}.`);
    }
    const now = ctx.now();
    await ctx.repos.outbox.requeue(found, now);
    await ctx.repos.jobs.requeue('outbox', id, now);
    return (await ctx.repos.outbox.findById(id)) as OutboxMessageRow;
  });
  ctx.outbox.wake();
  return row;
}
