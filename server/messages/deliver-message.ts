import type { AppContext } from '../context/app-context';
import type { OutboxMessageRow } from '../db/repos/outbox';
import { senderOf, type Mailbox } from './mail/mail-address';
import { makeMessageId, type SmtpSender } from './mail/smtp-sender';
import type { MessagingSettings } from './messaging-settings';
import { postSms } from './sms/post-sms';
import { resultForAll, type AttemptResult } from './attempt-result';
import { openMessageTexts } from './message-bodies';

function hostOf(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The sender of every e-mail: MAIL_FROM (or its saved setting); without one, the office's
 * registered address; without that, a no-reply address on the SMTP server's domain.
 */
export async function senderFor(
  ctx: AppContext,
  settings: MessagingSettings,
  fromName: string | null,
): Promise<Mailbox | undefined> {
  const officeEmail = (await ctx.repos.office.get(ctx.now())).email;
  const smtpHost = hostOf(settings.smtpUrl) ?? 'localhost';
  const mailFrom = settings.mailFrom ?? (officeEmail || `no-reply@${smtpHost}`);
  return senderOf(mailFrom, fromName);
}

/** The Message-ID a message keeps over all its attempts (null for SMS). */
export async function messageIdFor(
  ctx: AppContext,
  settings: MessagingSettings,
  row: OutboxMessageRow,
): Promise<string | null> {
  if (row.channel !== 'email') return null;
  if (row.messageId) return row.messageId;
  const from = await senderFor(ctx, settings, row.fromName);
  return makeMessageId(row.id, from?.address ?? 'signdesk.invalid');
}

/** One attempt at the addresses of a message still pending, through its channel's transport. */
export async function deliverMessage(
  ctx: AppContext,
  smtp: SmtpSender,
  row: OutboxMessageRow,
  settings: MessagingSettings,
  signal: AbortSignal,
): Promise<AttemptResult> {
  const pending = row.recipients
    .filter((recipient) => recipient.state === 'pending')
    .map((recipient) => recipient.address);
  const texts = openMessageTexts(ctx, row);
  if (texts === undefined)
    return resultForAll(
      pending,
      'deferred',
      "the message was sealed under another installation's key and cannot be read here",
    );
  if (row.channel === 'sms') {
    if (!settings.smsGatewayUrl || !pending[0])
      return resultForAll(pending, 'deferred', 'no SMS gateway is configured');
    return postSms(
      settings.smsGatewayUrl,
      { to: pending[0], body: texts.text },
      { timeoutMs: ctx.config.outboxTimeoutMs, signal, policy: ctx.outbound },
    );
  }
  const from = await senderFor(ctx, settings, row.fromName);
  if (!settings.smtpUrl) return resultForAll(pending, 'deferred', 'no SMTP server is configured');
  if (!from) return resultForAll(pending, 'deferred', 'the sender (mail_from) is not an e-mail address');
  return smtp.send(
    settings.smtpUrl,
    {
      from,
      toHeader: row.recipient,
      to: pending,
      subject: texts.subject ?? '',
      text: texts.text,
      html: texts.html,
      replyTo: row.replyTo,
      messageId: row.messageId ?? makeMessageId(row.id, from.address),
      dkim: settings.dkim,
    },
    signal,
  );
}
