import type { AppContext } from '../../context/app-context';
import { queueOutboxMessage } from '../queue-message';
import { parseAddressList } from './mail-address';

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

/** Far above any mail we write; a guard against a runaway body, not a product limit. */
const MAX_BODY_CHARS = 2_000_000;

/** Header values are one line: a line break in a subject or name is folded to a space. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * Call inside the caller's transaction; the outbox worker delivers it after commit.
 * `to` may list several addresses (`a@x.se, Name <b@y.se>`); each gets its own outcome.
 * Throws (and so rolls the caller's transaction back) when `to` holds no e-mail address.
 */
export async function enqueueMail(ctx: AppContext, mail: OutgoingMail): Promise<number> {
  const addresses = parseAddressList(mail.to);
  if (addresses.length === 0) throw new Error(`enqueueMail: "${mail.to}" holds no e-mail address`);
  if (mail.text.length > MAX_BODY_CHARS || (mail.html?.length ?? 0) > MAX_BODY_CHARS) {
    throw new Error('enqueueMail: the body is too large');
  }
  // A reply-to that is no address is left out rather than handed to the SMTP server.
  const replyTo = mail.replyTo === undefined ? [] : parseAddressList(mail.replyTo);
  return queueOutboxMessage(ctx, {
    channel: 'email',
    recipient: oneLine(mail.to),
    recipients: addresses.map((mailbox) => ({ address: mailbox.address, state: 'pending', response: null })),
    subject: oneLine(mail.subject),
    text: mail.text,
    html: mail.html ?? null,
    fromName: mail.fromName === undefined ? null : oneLine(mail.fromName),
    replyTo: replyTo.length === 0 ? null : oneLine(mail.replyTo ?? ''),
    purpose: mail.purpose,
    contractId: mail.contractId ?? null,
    partyId: mail.partyId ?? null,
  });
}
