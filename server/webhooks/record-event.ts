import { isOptionalWebhookEvent, type WebhookEventType } from '../../shared/api/webhooks';
import type { AppContext } from '../context/app-context';
import { WEBHOOK_QUEUE } from '../db/repos/webhook-consumers';

/**
 * `partyName`: the party's name when the event happened (the activity entry's party_name), sent as
 * `party_name`: a party becomes someone else on a delegation or correction, and its path stays.
 */
export type WebhookEventData = { id: string; party?: string; partyName?: string };

/**
 * Writes an event and, for every consumer, a delivery: with its job (first attempt after
 * WEBHOOK_FIRST_DELAY_S), or held while the consumer is disabled or still working through
 * events held before (they go in event order once it is enabled). Call INSIDE the transaction of the state change that causes the
 * event, so that both commit or neither: a crash loses no event and a rollback sends none.
 * An opt-in event goes only to the consumers that chose it, and is not written at all when none
 * did. Returns the event id, or undefined when no consumer wants the event.
 */
export async function recordEvent(
  ctx: AppContext,
  type: WebhookEventType,
  data: WebhookEventData,
): Promise<number | undefined> {
  const deliveries = ctx.repos.webhookDeliveries;
  if (!(await deliveries.isInTransaction())) {
    throw new Error('recordEvent must run inside the transaction of the change that causes the event');
  }
  if (type === 'contract.party_signed' && !data.party) throw new Error('contract.party_signed needs data.party');
  const isOptional = isOptionalWebhookEvent(type);
  const recipients = (await deliveries.recipients()).filter(
    (consumer) => !isOptional || (JSON.parse(consumer.events) as string[]).includes(type),
  );
  if (isOptional && recipients.length === 0) return undefined;
  const now = ctx.now();
  const payload = JSON.stringify({
    type,
    // The office's one clock, as every other timestamp (default Europe/Stockholm).
    timestamp: ctx.timestamp(now),
    data:
      data.party === undefined
        ? { id: data.id }
        : {
            id: data.id,
            party: data.party,
            ...(data.partyName === undefined ? {} : { party_name: data.partyName }),
          },
  });
  const eventId = await deliveries.insertEvent(type, payload, now);
  const runAt = now + Math.round(ctx.config.webhookFirstDelayS * 1000);
  for (const consumer of recipients) {
    if (consumer.isHolding) {
      await deliveries.insertDelivery(eventId, consumer.id, null, now);
      continue;
    }
    const deliveryId = await deliveries.insertDelivery(eventId, consumer.id, runAt, now);
    await ctx.repos.jobs.enqueue(WEBHOOK_QUEUE, deliveryId, runAt, now);
  }
  // After the caller's commit the webhook worker looks again (a rollback makes this a no-op look).
  setImmediate(() => ctx.webhooks.wake());
  return eventId;
}
