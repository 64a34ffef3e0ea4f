import type { AppContext } from '../context/app-context';
import { WebhookKeyError } from '../crypto/webhook-keys';
import type { DispatchRow } from '../db/repos/webhook-deliveries';
import { signWebhookRequest } from './http-signature';
import { createWebhookClient, postDelivery, type PostResult } from './post-delivery';
import { webhookKeyId } from './runtime';

export type Attempt = { startedAt: number; result: PostResult };

export type AttemptSender = {
  /** Signs the delivery's request and POSTs it; a key that cannot sign gives a failed attempt, not an error. */
  send(row: DispatchRow): Promise<Attempt>;
  /** Closes the keep-alive sockets. */
  close(): void;
};

/** One attempt of a delivery: RFC 9421 signature and POST. Parsed URLs and keep-alive sockets are reused across attempts. */
export function createAttemptSender(ctx: AppContext): AttemptSender {
  const timeoutMs = ctx.config.webhookTimeoutMs;
  const client = createWebhookClient(ctx.outbound);
  const urls = new Map<string, URL>();

  const urlOf = (text: string): URL => {
    let url = urls.get(text);
    if (!url) {
      if (urls.size > 1_000) urls.clear();
      url = new URL(text);
      urls.set(text, url);
    }
    return url;
  };

  return {
    async send(row) {
      const startedAt = ctx.now();
      let headers: Record<string, string>;
      const url = urlOf(row.url);
      const body = Buffer.from(row.payload);
      try {
        const signer = await ctx.webhooks.keyring.signerFor(row.consumerId, row.publicKey, row.sealedSecretKey);
        headers = signWebhookRequest({ url, body, keyId: webhookKeyId(row.consumerId), signer, nowMs: startedAt });
        // Not a covered component (the signature's components are fixed): it names the event for de-duplication.
        headers['webhook-id'] = String(row.eventId);
      } catch (err) {
        if (!(err instanceof WebhookKeyError)) throw err;
        ctx.logger.error({ err, consumerId: row.consumerId }, 'cannot sign a webhook delivery');
        const error = `not sent: ${err.message}`;
        return { startedAt, result: { statusCode: null, error, isTimeout: false, responseExcerpt: '', durationMs: 0 } };
      }
      return { startedAt, result: await postDelivery(url, headers, body, timeoutMs, client) };
    },
    close: () => client.close(),
  };
}
