import type { TMailWords } from '../../shared/api/brand';
import type { Language } from '../../shared/api/enums';
import { translatorFor } from '../../shared/i18n/catalogues';
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

/** The catalogue's key prefix of each message (a viewer's invitation has its own). */
const PREFIX = {
  invitation: 'invitation',
  reminder: 'reminder',
  signed: 'signed',
  code: 'code',
  'expiry-warning': 'expiry',
  withdrawn: 'withdrawn',
} as const;

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
  const prefix = kind === 'invitation' && facts.isViewer ? 'viewer' : PREFIX[kind];
  const values = {
    sender: facts.sender,
    document,
    name: named,
    link: facts.link,
    expires: facts.expires,
    code: facts.code ?? '',
    party: facts.party,
  };
  const text = (suffix: string) => t(`${prefix}.${suffix}` as Parameters<typeof t>[0], values);
  const reason = facts.reason?.trim();
  const button =
    kind === 'code' || kind === 'withdrawn'
      ? undefined
      : kind === 'reminder' || kind === 'expiry-warning'
        ? t('invitation.button')
        : text('button');
  const smsReason = kind === 'withdrawn' && reason ? ` ${t('withdrawn.reason', { reason })}` : '';
  const sms = `${text('sms')}${smsReason}`;
  const title = text('title');
  if (own && !(kind === 'invitation' && facts.isViewer)) {
    const filled = fillMailWords(own, {
      party_name: facts.party,
      contract_name: facts.name,
      link: facts.link,
      expiry: facts.expires,
      office_name: facts.sender,
    });
    return { subject: filled.subject, title, paragraphs: filled.paragraphs, ...(button ? { button } : {}), sms, isOwn: true };
  }
  const paragraphs = [t('greeting', { party: facts.party }), text('body')];
  if (kind === 'invitation' && !facts.isViewer && facts.expires) paragraphs.push(t('invitation.expires', values));
  if (kind === 'withdrawn' && reason) paragraphs.push(t('withdrawn.reason', { reason }));
  return { subject: text('subject'), title, paragraphs, ...(button ? { button } : {}), sms, isOwn: false };
}
