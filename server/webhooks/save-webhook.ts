import {
  OPTIONAL_WEBHOOK_EVENT_TYPES,
  type TWebhookConsumerCreate,
  type TWebhookConsumerUpdate,
} from '../../shared/api/webhooks';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { WebhookConsumerChanges, WebhookConsumerRow } from '../db/repos/webhook-consumers';
import { notFound, validationFailed } from '../core/errors';
import { releaseHeld } from './release-held';

/** The outbound address policy on a URL as saved (a name is checked again at every connection). */
function checkWebhookUrl(ctx: AppContext, url: string): void {
  const problem = ctx.outbound.checkUrl(url);
  if (problem) throw validationFailed([`url: ${problem}`]);
}

/** The chosen events as stored: each once, in the documented order. */
function eventsText(events: readonly string[]): string {
  return JSON.stringify(OPTIONAL_WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));
}

/** Registers a consumer with a fresh Ed25519 key pair; the secret half is stored only sealed. */
export async function createWebhook(
  ctx: AppContext,
  input: TWebhookConsumerCreate,
  authorId: number,
): Promise<WebhookConsumerRow> {
  checkWebhookUrl(ctx, input.url);
  const { publicKey, sealedSecretKey } = await ctx.webhooks.keyring.generate();
  const now = ctx.now();
  return ctx.repos.webhookConsumers.insert({
    url: input.url,
    contactEmail: input.contact_email ?? null,
    events: eventsText(input.events ?? []),
    publicKey,
    sealedSecretKey,
    createdBy: authorId,
    createdAt: now,
    updatedAt: now,
  });
}

/** A new url applies to every later attempt, pending deliveries included. */
export async function updateWebhook(
  ctx: AppContext,
  id: number,
  input: TWebhookConsumerUpdate,
): Promise<WebhookConsumerRow> {
  const changes: WebhookConsumerChanges = { updatedAt: ctx.now() };
  if (input.url !== undefined) {
    checkWebhookUrl(ctx, input.url);
    changes.url = input.url;
  }
  if (input.contact_email !== undefined) changes.contactEmail = input.contact_email;
  if (input.events !== undefined) changes.events = eventsText(input.events);
  const row = await ctx.repos.webhookConsumers.update(id, changes);
  if (!row) throw notFound('webhook consumer');
  return row;
}

/** Deletes the consumer, its deliveries, their attempts and queued jobs; its key pair is gone for good. */
export async function deleteWebhook(ctx: AppContext, id: number): Promise<void> {
  const isDeleted = await inTransaction(ctx.db, async () => ctx.repos.webhookConsumers.remove(id));
  if (!isDeleted) throw notFound('webhook consumer');
  ctx.webhooks.keyring.forget(id);
}

/** Clears disabled_time and the error count; the events held meanwhile go out in event order. */
export async function enableWebhook(ctx: AppContext, id: number): Promise<WebhookConsumerRow> {
  const row = await inTransaction(ctx.db, async () => {
    if (!(await ctx.repos.webhookConsumers.findById(id))) throw notFound('webhook consumer');
    await ctx.repos.webhookConsumers.enable(id, ctx.now());
    await releaseHeld(ctx, id, ctx.now());
    return (await ctx.repos.webhookConsumers.findById(id)) as WebhookConsumerRow;
  });
  ctx.webhooks.wake();
  return row;
}
