import { DEFAULT_TIME_ZONE } from '../../../shared/constants';
import { formatTimestamp } from '../../../shared/time';
import type { WebhookEventType } from '../../../shared/api/webhooks';
import type { AppContext } from '../../context';
import { WEBHOOK_QUEUE } from '../../db/repos/webhook-consumers';

export type WebhookEventData = { id: string; party?: string };

/** interface.md section 6: payload timestamps are Europe/Stockholm, whatever the appliance's TZ. */
const EVENT_TIME_ZONE = DEFAULT_TIME_ZONE;

/**
 * Writes an event and, for every enabled consumer, a delivery and its job (first attempt after
 * WEBHOOK_FIRST_DELAY_S). Call INSIDE the transaction of the state change that causes the
 * event, so that both commit or neither: a crash loses no event and a rollback sends none.
 * Returns the event id.
 */
export function recordEvent(ctx: AppContext, type: WebhookEventType, data: WebhookEventData): number {
  const deliveries = ctx.repos.webhookDeliveries;
  if (!deliveries.isInTransaction()) {
    throw new Error('recordEvent must run inside the transaction of the change that causes the event');
  }
  if (type === 'contract.party_signed' && !data.party) throw new Error('contract.party_signed needs data.party');
  const now = ctx.now();
  const payload = JSON.stringify({
    type,
    timestamp: formatTimestamp(now, EVENT_TIME_ZONE),
    data: data.party === undefined ? { id: data.id } : { id: data.id, party: data.party },
  });
  const eventId = deliveries.insertEvent(type, payload, now);
  const runAt = now + Math.round(ctx.config.webhookFirstDelayS * 1000);
  for (const consumerId of ctx.repos.webhookConsumers.enabledIds()) {
    const deliveryId = deliveries.insertDelivery(eventId, consumerId, runAt, now);
    ctx.repos.jobs.enqueue(WEBHOOK_QUEUE, deliveryId, runAt, now);
  }
  // After the caller's commit the dispatcher looks again (a rollback makes this a no-op look).
  setImmediate(() => ctx.webhooks.wake());
  return eventId;
}
