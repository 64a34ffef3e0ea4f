import type { Language } from '../../shared/api/enums';
import type { MessageExtras, Texts } from './party-messages';

/** Notices beyond the signing flow's own messages: the expiry warning and the withdrawal. */
export type NoticeKind = 'expiry-warning' | 'withdrawn';

type Values = MessageExtras & { party: string; sender: string; name: string; link: string; doc: string };

/** The texts of a notice, in the contract's language; `doc` is the quoted document name. */
export function noticeTexts(kind: NoticeKind, language: Language, v: Values): Texts {
  const isSwedish = language === 'sv';
  if (kind === 'expiry-warning') {
    const when = v.expires ?? '';
    return isSwedish
      ? {
          subject: `${v.doc} kan skrivas under till ${when}`,
          title: 'Tiden för underskrift går snart ut',
          paragraphs: [
            `Hej ${v.party},`,
            `${v.doc} från ${v.sender} väntar fortfarande på dig. Länken slutar gälla ${when}.`,
          ],
          button: 'Läs och skriv under',
          sms: `${v.doc} från ${v.sender} kan skrivas under till ${when}: ${v.link}`,
        }
      : {
          subject: `${v.doc} can be signed until ${when}`,
          title: 'The time to sign is running out',
          paragraphs: [
            `Hello ${v.party},`,
            `${v.doc} from ${v.sender} is still waiting for you. The link closes at ${when}.`,
          ],
          button: 'Read and sign',
          sms: `${v.doc} from ${v.sender} can be signed until ${when}: ${v.link}`,
        };
  }
  const reason = v.reason?.trim();
  return isSwedish
    ? {
        subject: `${v.sender} har dragit tillbaka ${v.doc}`,
        title: 'Dokumentet har dragits tillbaka',
        paragraphs: [
          `Hej ${v.party},`,
          `${v.sender} har dragit tillbaka ${v.doc}. Länken du fick fungerar inte längre och du behöver inte göra något.`,
          ...(reason ? [`Anledning: ${reason}`] : []),
        ],
        sms: `${v.sender} har dragit tillbaka ${v.doc}. Länken fungerar inte längre.${reason ? ` Anledning: ${reason}` : ''}`,
      }
    : {
        subject: `${v.sender} withdrew ${v.doc}`,
        title: 'The document was withdrawn',
        paragraphs: [
          `Hello ${v.party},`,
          `${v.sender} has withdrawn ${v.doc}. The link you received no longer works, and there is nothing for you to do.`,
          ...(reason ? [`Reason: ${reason}`] : []),
        ],
        sms: `${v.sender} withdrew ${v.doc}. The link no longer works.${reason ? ` Reason: ${reason}` : ''}`,
      };
}
