import nodemailer from 'nodemailer';
import type { AppContext } from '../context';

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  fromName?: string;
  replyTo?: string;
  purpose: string;
  contractId?: number;
  partyId?: number;
};

const DEFAULT_FROM = 'SignDesk <signdesk@localhost>';

async function sendNow(ctx: AppContext, mail: OutgoingMail): Promise<void> {
  if (!ctx.config.smtpUrl) {
    ctx.logger.warn({ purpose: mail.purpose, to: mail.to }, 'no SMTP_URL: the e-mail was not sent');
    return;
  }
  const from = ctx.config.mailFrom ?? DEFAULT_FROM;
  const transport = nodemailer.createTransport(ctx.config.smtpUrl);
  try {
    await transport.sendMail({
      from,
      to: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  } catch (err) {
    ctx.logger.error({ err, purpose: mail.purpose, to: mail.to }, 'sending an e-mail failed');
  } finally {
    transport.close();
  }
}

/**
 * Call inside the caller's transaction; the outbox worker delivers it after commit.
 *
 * TEMPORARY (webhooks branch): until the outbox branch merges, this sends directly with
 * nodemailer once the current transaction has run (setImmediate), without retries, and
 * returns 0 for want of an outbox row. The outbox's version replaces this file.
 */
export function enqueueMail(ctx: AppContext, mail: OutgoingMail): number {
  setImmediate(() => void sendNow(ctx, mail));
  return 0;
}
