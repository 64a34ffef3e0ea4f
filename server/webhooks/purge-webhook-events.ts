import { mapInOrder } from '../core/in-order';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { releaseHeld } from './release-held';

const PURGE_BATCH = 1_000;

/** The same instant one calendar month earlier (UTC), clamped to the end of a shorter month. */
export function oneMonthBefore(epochMs: number): number {
  const date = new Date(epochMs);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/**
 * The event log keeps one month (docs/decisions.md, "Webhooks"): older events go with their
 * deliveries, attempts and jobs, in small transactions so that requests are not held up.
 */
export async function purgeWebhookEvents(ctx: AppContext): Promise<number> {
  const cutoff = oneMonthBefore(ctx.now());
  let total = 0;
  for (;;) {
    const deleted = await inTransaction(ctx.db, async () => ctx.repos.webhookLog.purgeBefore(cutoff, PURGE_BATCH));
    total += deleted;
    if (deleted < PURGE_BATCH) break;
  }
  await resumeHeldDeliveries(ctx);
  return total;
}

/**
 * Held events go one at a time; a purge (or a crash of an older version) can take away the one
 * whose turn it was. This lets the next go for every enabled consumer that has none under way.
 */
export async function resumeHeldDeliveries(ctx: AppContext): Promise<void> {
  const deliveries = ctx.repos.webhookDeliveries;
  const isReleased = await inTransaction(ctx.db, async () =>
    (
      await mapInOrder(await deliveries.holdingConsumers(), async (consumerId) =>
        releaseHeld(ctx, consumerId, ctx.now()),
      )
    ).includes(true),
  );
  if (isReleased) ctx.webhooks.wake();
}
