import type { AppContext } from '../../context';
import { inTransaction } from '../../db/open-database';
import type { WebhookLogRow } from '../../db/repos/webhook-log';
import { AppError, notFound } from '../../core/errors';

/**
 * Manual retry from the event log: the delivery starts afresh, whatever its state (delivered
 * and failed ones too): one attempt now, then the retry schedule from its start.
 */
export function retryWebhookEvent(ctx: AppContext, consumerId: number, eventId: number): WebhookLogRow {
  const row = inTransaction(ctx.db, () => {
    const consumer = ctx.repos.webhookConsumers.findById(consumerId);
    if (!consumer) throw notFound('webhook consumer');
    const entry = ctx.repos.webhookLog.find(consumerId, eventId);
    if (!entry) throw notFound('event of this webhook consumer');
    if (consumer.disabledAt !== null) {
      throw new AppError('conflict', 'The webhook consumer is disabled; enable it first (POST /api/webhooks/{id}/enable).');
    }
    ctx.repos.webhookDeliveries.restart(entry.deliveryId, ctx.now());
    return ctx.repos.webhookLog.find(consumerId, eventId) as WebhookLogRow;
  });
  ctx.webhooks.wake();
  return row;
}
