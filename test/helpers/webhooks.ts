import { mapInOrder } from '../../server/core/in-order';
import type { CoreWebhookEventType } from '../../shared/api/webhooks';
import { inTransaction } from '../../server/db/open-database';
import type { SignDeskServer } from '../../server/index';
import type { Responder } from './webhook-receiver';
import { recordEvent, type WebhookEventData } from '../../server/webhooks/record-event';

/**
 * Makes a webhook event the way a state change will: recordEvent inside a transaction on the
 * running server's context. The signing flow that causes events in the product is not built
 * yet; when it is, this is the one place to switch tests to real signing.
 */
export async function recordTestEvent(
  server: Pick<SignDeskServer, 'ctx'>,
  type: CoreWebhookEventType,
  data: WebhookEventData,
  options: { now?: () => number } = {},
): Promise<number> {
  const ctx = options.now ? { ...server.ctx, now: options.now } : server.ctx;
  // The interface's events go to every consumer, so one is always written.
  return inTransaction(ctx.db, async () => (await recordEvent(ctx, type, data)) as number);
}

/** Several events in one transaction (one state change may cause party_signed and signed together). */
export async function recordTestEvents(
  server: Pick<SignDeskServer, 'ctx'>,
  events: ReadonlyArray<readonly [CoreWebhookEventType, WebhookEventData]>,
): Promise<number[]> {
  const { ctx } = server;
  return inTransaction(ctx.db, async () =>
    mapInOrder(events, async ([type, data]) => (await recordEvent(ctx, type, data)) as number),
  );
}

/**
 * A receiver's answer that checks held events come one at a time in event order: each of
 * `held` (by webhook-id) after `from` must come only once the one before it was answered
 * (`early` lists those that did not). Answers 200 after a moment, so that a second request
 * sent without waiting would arrive while the first is still open.
 */
export function inOrderResponder(held: readonly number[], from = 0): { respond: Responder; early: number[] } {
  const answered = new Set<number>();
  const early: number[] = [];
  return {
    early,
    respond: async (request) => {
      const index = held.indexOf(Number(request.headers['webhook-id']));
      if (index > from && !answered.has(held[index - 1] as number)) early.push(held[index] as number);
      await new Promise((resolve) => setTimeout(resolve, 3));
      answered.add(held[index] as number);
      return 200;
    },
  };
}
