import type { AppContext } from '../../context';
import type { WebhookConsumerRow } from '../../db/repos/webhook-consumers';
import { enqueueMail } from '../../mail/enqueue-mail';

/**
 * The notice that a consumer was disabled, to its contact_email or else the office's registered
 * address. Call inside the transaction that disables it.
 */
export function notifyWebhookDisabled(ctx: AppContext, consumer: WebhookConsumerRow, lastError: string): void {
  const to = consumer.contactEmail ?? ctx.repos.office.get(ctx.now()).email;
  if (!to) {
    ctx.logger.warn({ consumerId: consumer.id }, 'webhook consumer disabled; no contact_email and no office e-mail to tell');
    return;
  }
  const enableUrl = `${ctx.baseUrl()}/api/webhooks/${consumer.id}/enable`;
  enqueueMail(ctx, {
    to,
    subject: `SignDesk stopped sending events to ${consumer.url}`,
    text: [
      `SignDesk has disabled the webhook consumer ${consumer.url} (/api/webhooks/${consumer.id}) at ${ctx.timestamp(ctx.now())}:`,
      'its last ten deliveries ended in permanent errors (no answer within the time allowed, 410 Gone, or a redirect).',
      '',
      `Last error: ${lastError}`,
      '',
      'No events are sent to it until an administrator enables it again. Events that were waiting are kept',
      'and go out once it is enabled. Fix the receiver, then enable the consumer in the admin UI',
      `(Webhooks) or with POST ${enableUrl}.`,
    ].join('\n'),
    purpose: 'webhook-disabled',
  });
}
