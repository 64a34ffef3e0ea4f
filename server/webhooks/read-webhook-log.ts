import type { AppContext } from '../context/app-context';
import type { KeysetPage, KeysetRequest } from '../db/keyset';
import type { WebhookAttemptRow, WebhookLogRow } from '../db/repos/webhook-log';

/** Events of a consumer's log with every attempt of their deliveries, read in one snapshot. */
export type WebhookLogRead = { rows: readonly WebhookLogRow[]; attempts: readonly WebhookAttemptRow[] };

/*
 * The log is read in one snapshot: a delivery settling meanwhile (its state and its attempt
 * commit together) shows with both or with neither, never as "pending" beside a delivered attempt.
 */

export async function readWebhookEvent(
  ctx: AppContext,
  consumerId: number,
  eventId: number,
): Promise<WebhookLogRead | undefined> {
  return ctx.db.snapshot(async () => {
    const row = await ctx.repos.webhookLog.find(consumerId, eventId);
    return row && { rows: [row], attempts: await ctx.repos.webhookLog.attemptsOf([row.deliveryId]) };
  });
}

export async function readWebhookLogPage(
  ctx: AppContext,
  consumerId: number,
  state: string | undefined,
  request: KeysetRequest,
): Promise<WebhookLogRead & { page: KeysetPage<WebhookLogRow>; total: number }> {
  return ctx.db.snapshot(async () => {
    const page = await ctx.repos.webhookLog.listPage(consumerId, state, request);
    const total = await ctx.repos.webhookLog.count(consumerId, state);
    const attempts = await ctx.repos.webhookLog.attemptsOf(page.rows.map((row) => row.deliveryId));
    return { page, total, rows: page.rows, attempts };
  });
}
