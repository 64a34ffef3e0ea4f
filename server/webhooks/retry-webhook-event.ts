import {
  WEBHOOK_RETRYABLE_STATES,
  type TWebhookBulkRetry,
  type TWebhookBulkRetryResult,
} from '../../shared/api/webhooks';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { releaseHeld } from './release-held';
import type { WebhookConsumerRow } from '../db/repos/webhook-consumers';
import type { WebhookLogRow } from '../db/repos/webhook-log';
import { AppError, notFound } from '../core/errors';

/** Nothing is sent to a disabled consumer, not even by hand: enabling it sends its held events. */
async function requireEnabledConsumer(ctx: AppContext, consumerId: number): Promise<WebhookConsumerRow> {
  const consumer = await ctx.repos.webhookConsumers.findById(consumerId);
  if (!consumer) throw notFound('webhook consumer');
  if (consumer.disabledAt !== null) {
    throw new AppError(
      'conflict',
      `The webhook consumer is disabled (since ${ctx.timestamp(consumer.disabledAt)}), so nothing is sent to it. Enable it ` +
        `(POST /api/webhooks/${consumer.id}/enable): its held events then go out in event order, and failed ones can be retried.`,
    );
  }
  return consumer;
}

const redeliverRefused = (what: string) =>
  new AppError(
    'conflict',
    `${what} already delivered; send {"redeliver": true} to send it again (the receiver gets a duplicate, with the same Webhook-Id).`,
  );

/**
 * Manual retry from the event log: the delivery starts afresh (one attempt now, then the retry
 * schedule from its start). An event already delivered goes again only with `redeliver`.
 */
export async function retryWebhookEvent(
  ctx: AppContext,
  consumerId: number,
  eventId: number,
  options: { redeliver?: boolean | undefined } = {},
): Promise<WebhookLogRow> {
  const row = await inTransaction(ctx.db, async () => {
    await requireEnabledConsumer(ctx, consumerId);
    const entry = await ctx.repos.webhookLog.find(consumerId, eventId);
    if (!entry) throw notFound('event of this webhook consumer');
    if (entry.state === 'delivered' && options.redeliver !== true) throw redeliverRefused(`Event ${eventId} was`);
    await ctx.repos.webhookDeliveries.restart(entry.deliveryId, ctx.now());
    return (await ctx.repos.webhookLog.find(consumerId, eventId)) as WebhookLogRow;
  });
  ctx.webhooks.wake();
  return row;
}

/**
 * Bulk retry: failed (and, with `redeliver`, delivered) events start afresh now; held ones go
 * out in event order, as on enabling. Answers how many of each were queued.
 */
export async function retryWebhookEvents(
  ctx: AppContext,
  consumerId: number,
  input: TWebhookBulkRetry,
): Promise<TWebhookBulkRetryResult> {
  const states = new Set(input.states);
  if (states.has('delivered') && input.redeliver !== true) {
    await requireEnabledConsumer(ctx, consumerId);
    throw redeliverRefused('Each of its delivered events was');
  }
  const queued = await inTransaction(ctx.db, async () => {
    await requireEnabledConsumer(ctx, consumerId);
    const now = ctx.now();
    const deliveries = ctx.repos.webhookDeliveries;
    const counts = { held: 0, failed: 0, delivered: 0 };
    for (const state of WEBHOOK_RETRYABLE_STATES) {
      if (!states.has(state)) continue;
      if (state === 'held') {
        counts.held = await deliveries.countInState(consumerId, 'held');
        await releaseHeld(ctx, consumerId, now);
      } else {
        counts[state] = await deliveries.restartAllInState(consumerId, state, now);
      }
    }
    return counts;
  });
  ctx.webhooks.wake();
  return { queued, total: queued.held + queued.failed + queued.delivered };
}
