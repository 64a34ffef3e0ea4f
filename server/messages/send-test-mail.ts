import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { OutboxMessageRow } from '../db/repos/outbox';
import { AppError, validationFailed } from '../core/errors';
import { renderMailLayout } from './mail/render-mail-layout';
import { createSmtpSender } from './mail/smtp-sender';
import type { AttemptResult } from './attempt-result';
import { deliverMessage, messageIdFor } from './deliver-message';
import { sealMessageTexts } from './message-bodies';
import { recordAttempt } from './record-attempt';
import { readMessagingSettings, type MessagingSettings } from './messaging-settings';
import { unmask } from './messaging-settings';

type TMessagingTestInput = { smtp_url?: string | null | undefined; mail_from?: string | null | undefined };

/** The admin tests what the form holds, saved or not: its values stand in for the saved ones (a masked password is the saved one). */
function withFormValues(saved: MessagingSettings, form: TMessagingTestInput): MessagingSettings {
  const settings = { ...saved };
  if (form.smtp_url !== undefined) {
    const url = form.smtp_url === null ? undefined : unmask('smtp_url', form.smtp_url, saved.smtpUrl);
    if (typeof url === 'object') throw validationFailed([url.error]);
    settings.smtpUrl = url;
  }
  if (form.mail_from !== undefined) settings.mailFrom = form.mail_from?.trim() ?? undefined;
  return settings;
}

export type TestMailOutcome = { isAccepted: boolean; result: AttemptResult; row: OutboxMessageRow };

/**
 * Sends a test e-mail now, through the SMTP settings of the form (else those in force), and tells what the server said.
 * It is kept in the outbox like any mail (purpose `settings-test`) but never retried: the
 * answer is the point.
 */
export async function sendTestMail(
  ctx: AppContext,
  to: string,
  form: Pick<TMessagingTestInput, 'smtp_url' | 'mail_from'> = {},
  content?: { subject: string; text: string; html: string; fromName?: string },
): Promise<TestMailOutcome> {
  const settings = withFormValues(await readMessagingSettings(ctx), form);
  if (settings.smtpUrl === undefined) {
    throw new AppError(
      'conflict',
      'No SMTP server is configured: set smtp_url (PUT /api/settings/messaging) or SMTP_URL first.',
    );
  }
  const office = await ctx.repos.office.get(ctx.now());
  const { html, text } =
    content ??
    renderMailLayout({
      title: 'SignDesk test e-mail',
      paragraphs: [
        'This message shows that SignDesk can send e-mail through your SMTP server.',
        'Invitations, reminders and signed documents will reach your parties the same way.',
      ],
      footer: office.name ? `Sent by SignDesk for ${office.name}.` : 'Sent by SignDesk.',
      language: 'en',
    });
  // No job: the attempt runs right here. A crash during it leaves the row `sending` for good,
  // which is only a test's record.
  const row = await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    const id = await ctx.repos.outbox.insert({
      channel: 'email',
      recipient: to,
      recipients: [{ address: to, state: 'pending', response: null }],
      ...sealMessageTexts(ctx, { subject: content?.subject ?? 'SignDesk test e-mail', text, html }),
      fromName: content?.fromName ?? null,
      replyTo: null,
      purpose: 'settings-test',
      contractId: null,
      partyId: null,
      state: 'queued',
      createdAt: now,
      updatedAt: now,
    });
    const inserted = (await ctx.repos.outbox.findById(id)) as OutboxMessageRow;
    await ctx.repos.outbox.startAttempt(id, now, await messageIdFor(ctx, settings, inserted));
    return (await ctx.repos.outbox.findById(id)) as OutboxMessageRow;
  });

  const smtp = createSmtpSender({ timeoutMs: ctx.config.outboxTimeoutMs, isPooled: false, policy: ctx.outbound });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('the test took too long')), ctx.config.outboxTimeoutMs * 4);
  let result: AttemptResult;
  try {
    result = await deliverMessage(ctx, smtp, row, settings, controller.signal);
  } finally {
    clearTimeout(timer);
    smtp.close();
  }
  await recordAttempt(ctx, row, result, []);
  return {
    isAccepted: result.recipients.every((recipient) => recipient.outcome === 'accepted'),
    result,
    row: (await ctx.repos.outbox.findById(row.id)) as OutboxMessageRow,
  };
}
