import type { CoreWebhookEventType } from '../../shared/api/webhooks';
import { inTransaction } from '../../server/db/open-database';
import type { SignDeskServer } from '../../server/index';
import { recordEvent, type WebhookEventData } from '../../server/webhooks/record-event';

/**
 * Makes a webhook event the way a state change will: recordEvent inside a transaction on the
 * running server's context. The signing flow that causes events in the product is not built
 * yet; when it is, this is the one place to switch tests to real signing.
 */
export function recordTestEvent(
  server: Pick<SignDeskServer, 'ctx'>,
  type: CoreWebhookEventType,
  data: WebhookEventData,
  options: { now?: () => number } = {},
): number {
  const ctx = options.now ? { ...server.ctx, now: options.now } : server.ctx;
  // The interface's events go to every consumer, so one is always written.
  return inTransaction(ctx.db, () => recordEvent(ctx, type, data) as number);
}

/** Several events in one transaction (one state change may cause party_signed and signed together). */
export function recordTestEvents(
  server: Pick<SignDeskServer, 'ctx'>,
  events: ReadonlyArray<readonly [CoreWebhookEventType, WebhookEventData]>,
): number[] {
  const { ctx } = server;
  return inTransaction(ctx.db, () => events.map(([type, data]) => recordEvent(ctx, type, data) as number));
}
