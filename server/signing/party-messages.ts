import type { Language } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { signingLink } from '../secrets/link-tokens';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { enqueueMail } from '../messages/mail/enqueue-mail';
import { enqueueSms } from '../messages/sms/enqueue-sms';
import { formatDeadline } from '../../shared/i18n/languages';
import { readBrand } from '../brand/read-brand';
import { mailWordsFor } from '../brand/mail-words';
import type { MessageExtras, PartyMessageKind } from './party-message-texts';
import { composePartyMail } from './compose-party-mail';

export type { MessageExtras, PartyMessageKind } from './party-message-texts';

export type MessageChannel = 'email' | 'sms';

/**
 * The activity-log details of a message to a party: how it went out (email, sms, email+sms or
 * none) and the addresses it went to.
 */
export function channelDetails(
  party: PartyRow,
  channels: readonly MessageChannel[],
): { channel: string; email?: string; mobile_phone?: string } {
  return {
    channel: channels.length === 0 ? 'none' : channels.join('+'),
    ...(channels.includes('email') ? { email: party.email } : {}),
    ...(channels.includes('sms') ? { mobile_phone: party.mobilePhone } : {}),
  };
}

export const signedPdfLink = (ctx: AppContext, party: PartyRow) => `${signingLink(ctx, party)}/signed.pdf`;

/** Which channels a message goes by: the party's delivery method, or for a code the channel the contract asks for. */
function channelsOf(
  kind: PartyMessageKind,
  contract: ContractRow,
  party: PartyRow,
): { isEmail: boolean; isSms: boolean } {
  if (kind === 'code')
    return { isEmail: contract.requireAuth === 'EMAIL_CODE', isSms: contract.requireAuth === 'SMS_CODE' };
  return {
    isEmail: party.deliveryMethod === 'EMAIL' || party.deliveryMethod === 'EMAIL_AND_SMS',
    isSms: party.deliveryMethod === 'SMS' || party.deliveryMethod === 'EMAIL_AND_SMS',
  };
}

/**
 * Writes one message to a party into the outbox, by its delivery method; call inside the
 * transaction of the change that causes it. Returns the channels it went by (the activity log names them).
 */
export async function enqueuePartyMessage(
  ctx: AppContext,
  kind: PartyMessageKind,
  contract: ContractRow,
  party: PartyRow,
  extras: MessageExtras = {},
): Promise<MessageChannel[]> {
  const language = contract.language as Language;
  const brand = await readBrand(ctx, contract.emailFromName);
  const sender = brand.officeName || 'SignDesk';
  const link = kind === 'signed' ? signedPdfLink(ctx, party) : signingLink(ctx, party);
  // A database brought here without its keys: the party's link cannot be worked out, and a
  // message with a dead link would only confuse its reader (a code or a withdrawal has none).
  if (kind !== 'code' && kind !== 'withdrawn' && !signingLink(ctx, party)) {
    ctx.logger.warn(
      { contractId: contract.id, partyId: party.id },
      "a party's link cannot be worked out with this installation's keys; no message written",
    );
    return [];
  }
  const isViewer = party.signType === 'VIEWER';
  const mail = composePartyMail(ctx, {
    kind,
    language,
    brand,
    own: isViewer ? undefined : await mailWordsFor(ctx, kind, language),
    addition: contract.emailInviteContent,
    facts: {
      party: party.name,
      sender,
      name: contract.name,
      isViewer,
      link,
      expires: contract.expireAt === null ? '' : formatDeadline(contract.expireAt, language, ctx.config.timeZone),
      ...extras,
    },
  });
  const { isEmail, isSms } = channelsOf(kind, contract, party);
  const written: MessageChannel[] = [];
  if (isEmail && party.email) {
    await enqueueMail(ctx, {
      to: party.name ? `"${party.name.replace(/["\\]/g, '')}" <${party.email}>` : party.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      fromName: sender,
      ...(contract.emailReplyTo ? { replyTo: contract.emailReplyTo } : {}),
      purpose: kind,
      contractId: contract.id,
      partyId: party.id,
    });
    written.push('email');
  }
  if (isSms && party.mobilePhone) {
    await enqueueSms(ctx, {
      to: party.mobilePhone,
      body: mail.sms,
      purpose: kind,
      contractId: contract.id,
      partyId: party.id,
    });
    written.push('sms');
  }
  return written;
}
