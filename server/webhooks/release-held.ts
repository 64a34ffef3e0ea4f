import type { AppContext } from '../context/app-context';

/**
 * Lets the consumer's next held deliveries go, in event order (docs/decisions.md, webhooks): a
 * window of them at a time, which the webhook worker sends one after another, so that they
 * arrive in the order their events happened while each claim, load and settle serves a batch.
 * Call inside the transaction that decides it; wake the worker after the commit. True when any went.
 */
export async function releaseHeld(ctx: AppContext, consumerId: number, now: number): Promise<boolean> {
  return (await ctx.repos.webhookDeliveries.releaseHeld(consumerId, now)).length > 0;
}
