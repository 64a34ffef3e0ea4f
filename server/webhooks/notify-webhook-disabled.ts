import type { AppContext } from '../context/app-context';
import type { WebhookConsumerRow } from '../db/repos/webhook-consumers';
import { enqueueMail } from '../messages/mail/enqueue-mail';

/**
 * The notice that a consumer was disabled, to its contact_email or else the office's registered
 * address. Call inside the transaction that disables it.
 */
export async function notifyWebhookDisabled(
  ctx: AppContext,
  consumer: WebhookConsumerRow,
  lastError: string,
): Promise<void> {
  const to = consumer.contactEmail ?? (await ctx.repos.office.get(ctx.now())).email;
  if (!to) {
    ctx.logger.warn(
      { consumerId: consumer.id },
      'webhook consumer disabled; no contact_email and no office e-mail to tell',
    );
    return;
  }
  const adminPage = `${ctx.baseUrl()}/admin/webhooks/${consumer.id}`;
  await enqueueMail(ctx, {
    to,
    subject: `SignDesk stopped sending events to ${consumer.url}`,
    text: [
      `SignDesk has disabled the webhook consumer ${consumer.url} (/api/webhooks/${consumer.id}) at ${ctx.timestamp(ctx.now())}`,
      `(${ctx.config.timeZone}): its last ten deliveries ended in permanent errors (no answer within the time allowed,`,
      '410 Gone, or a redirect).',
      '',
      `Last error: ${lastError}`,
      '',
      'Nothing is sent to it until an administrator enables it again. Events raised meanwhile are kept',
      'as "held" in its event log and go out, in the order they happened, once it is enabled; none is lost',
      '(the event log keeps one month). Fix the receiver, then enable the consumer on its page in the admin UI:',
      '',
      adminPage,
      '',
      `or through the API: POST ${ctx.baseUrl()}/api/webhooks/${consumer.id}/enable`,
    ].join('\n'),
    purpose: 'webhook-disabled',
  });
}
