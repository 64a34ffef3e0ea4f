import type { TWebhookConsumerCreate, TWebhookConsumerUpdate } from '../../shared/api/webhooks';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { WebhookConsumerRow } from '../db/repos/webhook-consumers';
import { createWebhook, deleteWebhook, updateWebhook } from '../webhooks/save-webhook';
import { fingerprintOf, logOfficeEvent } from './office-log';

/**
 * The webhook consumers' changes with their office-log entries, each in the change's
 * transaction (issue 39): a consumer's key pair signs what integrators trust, so the office log
 * records the public key's SHA-256 when it is made, and the office's check compares the stored
 * key with it. (Here, not in webhooks/, which the activity log itself uses.)
 */
export async function registerWebhook(
  ctx: AppContext,
  input: TWebhookConsumerCreate,
  authorId: number,
): Promise<WebhookConsumerRow> {
  return inTransaction(ctx.db, async () => {
    const row = await createWebhook(ctx, input, authorId);
    await logOfficeEvent(ctx, {
      event: 'webhook.created',
      subject: `/api/webhooks/${row.id}`,
      userId: authorId,
      details: { public_key_sha256: fingerprintOf(row.publicKey) },
    });
    return row;
  });
}

export async function changeWebhook(
  ctx: AppContext,
  id: number,
  input: TWebhookConsumerUpdate,
): Promise<WebhookConsumerRow> {
  return inTransaction(ctx.db, async () => {
    const row = await updateWebhook(ctx, id, input);
    const fields = Object.entries(input)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key)
      .sort();
    await logOfficeEvent(ctx, {
      event: 'webhook.changed',
      subject: `/api/webhooks/${id}`,
      details: { fields: fields.join(',') },
    });
    return row;
  });
}

export async function removeWebhook(ctx: AppContext, id: number): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await deleteWebhook(ctx, id);
    await logOfficeEvent(ctx, { event: 'webhook.deleted', subject: `/api/webhooks/${id}` });
  });
}
