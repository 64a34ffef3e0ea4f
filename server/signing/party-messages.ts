import type { Language } from '../../shared/api/enums';
import type { AppContext } from '../context/app-context';
import { signingLink } from '../secrets/link-tokens';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { enqueueMail } from '../messages/mail/enqueue-mail';
import { renderMailLayout } from '../messages/mail/render-mail-layout';
import { enqueueSms } from '../messages/sms/enqueue-sms';
import { noticeTexts, type NoticeKind } from './party-notice-texts';

/** The messages a party receives, in the contract's language. */
export type PartyMessageKind = 'invitation' | 'reminder' | 'signed' | 'code' | NoticeKind;

/** What a message's text needs beyond the contract and the party. */
export type MessageExtras = { code?: string | undefined; expires?: string | undefined; reason?: string | undefined };

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

export type Texts = {
  subject: string;
  title: string;
  paragraphs: string[];
  button?: string;
  sms: string;
};

function quoted(name: string, language: Language): string {
  if (name.trim() === '') return language === 'sv' ? 'ett dokument' : 'a document';
  return language === 'sv' ? `”${name}”` : `“${name}”`;
}

function textsFor(
  kind: PartyMessageKind,
  language: Language,
  v: { party: string; sender: string; name: string; isViewer: boolean; link: string } & MessageExtras,
): Texts {
  const doc = quoted(v.name, language);
  if (kind === 'expiry-warning' || kind === 'withdrawn') return noticeTexts(kind, language, { ...v, doc });
  if (language === 'sv') {
    switch (kind) {
      case 'invitation':
        return v.isViewer
          ? {
              subject: `${v.sender} delar ${doc} med dig`,
              title: `${v.name || 'Dokument'} för kännedom`,
              paragraphs: [
                `Hej ${v.party},`,
                `${v.sender} har delat ${doc} med dig för kännedom. Du behöver inte skriva under.`,
              ],
              button: 'Visa dokumentet',
              sms: `${v.sender} delar ${doc} med dig: ${v.link}`,
            }
          : {
              subject: `${v.sender} har skickat ${doc} för underskrift`,
              title: `${v.name || 'Dokument'} att skriva under`,
              paragraphs: [`Hej ${v.party},`, `${v.sender} har skickat ${doc} till dig för elektronisk underskrift.`],
              button: 'Läs och skriv under',
              sms: `${v.sender} har skickat ${doc} för underskrift: ${v.link}`,
            };
      case 'reminder':
        return {
          subject: `Påminnelse: ${doc} väntar på din underskrift`,
          title: 'Påminnelse',
          paragraphs: [`Hej ${v.party},`, `${doc} från ${v.sender} väntar fortfarande på dig.`],
          button: 'Läs och skriv under',
          sms: `Påminnelse: ${doc} från ${v.sender} väntar på dig: ${v.link}`,
        };
      case 'signed':
        return {
          subject: `${doc} är underskrivet av alla`,
          title: 'Underskrivet av alla',
          paragraphs: [
            `Hej ${v.party},`,
            `Alla parter har skrivit under ${doc}. Ladda ner det underskrivna dokumentet; dess digitala försegling visar att det inte har ändrats.`,
          ],
          button: 'Ladda ner PDF',
          sms: `${doc} är underskrivet av alla. Ladda ner: ${v.link}`,
        };
      case 'code':
        return {
          subject: `Din engångskod för ${doc}`,
          title: 'Din engångskod',
          paragraphs: [`Hej ${v.party},`, `Ange koden ${v.code} för att öppna ${doc}. Koden gäller i 10 minuter.`],
          sms: `Din kod för ${doc}: ${v.code} (gäller i 10 minuter)`,
        };
    }
  }
  switch (kind) {
    case 'invitation':
      return v.isViewer
        ? {
            subject: `${v.sender} shared ${doc} with you`,
            title: `${v.name || 'Document'} for your information`,
            paragraphs: [
              `Hello ${v.party},`,
              `${v.sender} shared ${doc} with you for your information. You do not need to sign it.`,
            ],
            button: 'View the document',
            sms: `${v.sender} shared ${doc} with you: ${v.link}`,
          }
        : {
            subject: `${v.sender} sent you ${doc} to sign`,
            title: `${v.name || 'Document'} to sign`,
            paragraphs: [`Hello ${v.party},`, `${v.sender} sent you ${doc} for electronic signature.`],
            button: 'Read and sign',
            sms: `${v.sender} sent you ${doc} to sign: ${v.link}`,
          };
    case 'reminder':
      return {
        subject: `Reminder: ${doc} is waiting for your signature`,
        title: 'Reminder',
        paragraphs: [`Hello ${v.party},`, `${doc} from ${v.sender} is still waiting for you.`],
        button: 'Read and sign',
        sms: `Reminder: ${doc} from ${v.sender} is waiting for you: ${v.link}`,
      };
    case 'signed':
      return {
        subject: `${doc} is signed by everyone`,
        title: 'Signed by everyone',
        paragraphs: [
          `Hello ${v.party},`,
          `Every party has signed ${doc}. Download the signed document; its digital seal proves it has not been changed.`,
        ],
        button: 'Download the PDF',
        sms: `${doc} is signed by everyone. Download: ${v.link}`,
      };
    case 'code':
      return {
        subject: `Your one-time code for ${doc}`,
        title: 'Your one-time code',
        paragraphs: [`Hello ${v.party},`, `Enter the code ${v.code} to open ${doc}. The code is good for 10 minutes.`],
        sms: `Your code for ${doc}: ${v.code} (good for 10 minutes)`,
      };
  }
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
  const office = await ctx.repos.office.get(ctx.now());
  const sender = contract.emailFromName || office.name || 'SignDesk';
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
  const texts = textsFor(kind, language, {
    party: party.name,
    sender,
    name: contract.name,
    isViewer: party.signType === 'VIEWER',
    link,
    ...extras,
  });
  const paragraphs =
    kind === 'invitation' && contract.emailInviteContent.trim()
      ? [...texts.paragraphs, contract.emailInviteContent]
      : texts.paragraphs;
  const { isEmail, isSms } = channelsOf(kind, contract, party);
  const written: MessageChannel[] = [];
  if (isEmail && party.email) {
    const layout = renderMailLayout({
      title: texts.title,
      paragraphs,
      ...(texts.button ? { button: { label: texts.button, url: link } } : {}),
      footer: language === 'sv' ? `Skickat med SignDesk för ${sender}` : `Sent with SignDesk for ${sender}`,
      language,
    });
    await enqueueMail(ctx, {
      to: party.name ? `"${party.name.replace(/["\\]/g, '')}" <${party.email}>` : party.email,
      subject: texts.subject,
      text: layout.text,
      html: layout.html,
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
      body: texts.sms,
      purpose: kind,
      contractId: contract.id,
      partyId: party.id,
    });
    written.push('sms');
  }
  return written;
}
