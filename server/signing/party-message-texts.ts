import type { TMailWords } from '../../shared/api/brand';
import type { Language } from '../../shared/api/enums';
import { translatorFor, type KeyOf } from '../../shared/i18n/catalogues';
import { fillMailWords } from '../brand/mail-words';

/** The messages a party receives, in the contract's language. */
export type PartyMessageKind = 'invitation' | 'reminder' | 'signed' | 'code' | 'expiry-warning' | 'withdrawn';

/** What a message's text needs beyond the contract and the party. */
export type MessageExtras = { code?: string | undefined; reason?: string | undefined };

export type MessageFacts = MessageExtras & {
  party: string;
  sender: string;
  /** The contract's name ('' when unnamed). */
  name: string;
  isViewer: boolean;
  link: string;
  /** When the links close, in the party's language ('' when they never do). */
  expires: string;
};

export type Texts = {
  subject: string;
  title: string;
  paragraphs: string[];
  button?: string;
  sms: string;
  /** The office's own words made the subject and the body (the mail still has SignDesk's layout). */
  isOwn: boolean;
};

type MailKey = KeyOf<'mail'>;
type Parts = { subject: MailKey; title: MailKey; body: MailKey; sms: MailKey; button?: MailKey };

/** The catalogue's keys of each message (a viewer's invitation has its own; reminders share the invitation's button). */
const KEYS: Record<PartyMessageKind | 'viewer', Parts> = {
  invitation: {
    subject: 'invitation.subject',
    title: 'invitation.title',
    body: 'invitation.body',
    sms: 'invitation.sms',
    button: 'invitation.button',
  },
  viewer: {
    subject: 'viewer.subject',
    title: 'viewer.title',
    body: 'viewer.body',
    sms: 'viewer.sms',
    button: 'viewer.button',
  },
  reminder: {
    subject: 'reminder.subject',
    title: 'reminder.title',
    body: 'reminder.body',
    sms: 'reminder.sms',
    button: 'invitation.button',
  },
  'expiry-warning': {
    subject: 'expiry.subject',
    title: 'expiry.title',
    body: 'expiry.body',
    sms: 'expiry.sms',
    button: 'invitation.button',
  },
  signed: {
    subject: 'signed.subject',
    title: 'signed.title',
    body: 'signed.body',
    sms: 'signed.sms',
    button: 'signed.button',
  },
  code: { subject: 'code.subject', title: 'code.title', body: 'code.body', sms: 'code.sms' },
  withdrawn: { subject: 'withdrawn.subject', title: 'withdrawn.title', body: 'withdrawn.body', sms: 'withdrawn.sms' },
};

/**
 * A message's texts in the language, from the catalogue's `mail` namespace, or, for the mails the
 * office wrote its own words for (invitations to answer, reminders, the signed mail), its
 * subject and body around SignDesk's button and footer. The SMS stays SignDesk's: short, with
 * the link.
 */
export function partyMessageTexts(
  kind: PartyMessageKind,
  language: Language,
  facts: MessageFacts,
  own?: TMailWords,
): Texts {
  const t = translatorFor(language, 'mail');
  const document = facts.name.trim() === '' ? t('aDocument') : t('quoted', { name: facts.name });
  const named = facts.name || t('untitled');
  const keys = KEYS[kind === 'invitation' && facts.isViewer ? 'viewer' : kind];
  const values = {
    sender: facts.sender,
    document,
    name: named,
    link: facts.link,
    expires: facts.expires,
    code: facts.code ?? '',
    party: facts.party,
  };
  const reason = facts.reason?.trim();
  const button = keys.button ? t(keys.button) : undefined;
  const smsReason = kind === 'withdrawn' && reason ? ` ${t('withdrawn.reason', { reason })}` : '';
  const sms = `${t(keys.sms, values)}${smsReason}`;
  const title = t(keys.title, values);
  if (own && !(kind === 'invitation' && facts.isViewer)) {
    const filled = fillMailWords(own, {
      party_name: facts.party,
      contract_name: facts.name,
      link: facts.link,
      expiry: facts.expires,
      office_name: facts.sender,
    });
    return {
      subject: filled.subject,
      title,
      paragraphs: filled.paragraphs,
      ...(button ? { button } : {}),
      sms,
      isOwn: true,
    };
  }
  const paragraphs = [t('greeting', { party: facts.party }), t(keys.body, values)];
  if (kind === 'invitation' && !facts.isViewer && facts.expires) paragraphs.push(t('invitation.expires', values));
  if (kind === 'withdrawn' && reason) paragraphs.push(t('withdrawn.reason', { reason }));
  return { subject: t(keys.subject, values), title, paragraphs, ...(button ? { button } : {}), sms, isOwn: false };
}
