import type { TMailWords } from '../../shared/api/brand';
import type { Language } from '../../shared/api/enums';
import { translatorFor } from '../../shared/i18n/catalogues';
import type { ReadContext } from '../context/read-context';
import { accentOf, logoPath, type Brand } from '../brand/read-brand';
import { renderMailLayout } from '../messages/mail/render-mail-layout';
import { partyMessageTexts, type MessageFacts, type PartyMessageKind } from './party-message-texts';

export type ComposedMail = { subject: string; html: string; text: string; sms: string; isOwn: boolean };

/**
 * A message to a party as it goes out: its texts in the language (SignDesk's, or the office's own
 * words), in SignDesk's mail layout under the office's name, logo and accent, with the button to
 * the party's link. `addition` is the contract's own line for invitations (email_invite_content),
 * left out when the office's own words make the mail. The preview in the settings is this very mail.
 */
export function composePartyMail(
  ctx: ReadContext,
  input: {
    kind: PartyMessageKind;
    language: Language;
    facts: MessageFacts;
    brand: Brand;
    own?: TMailWords | undefined;
    addition?: string | undefined;
  },
): ComposedMail {
  const { kind, language, facts, brand } = input;
  const texts = partyMessageTexts(kind, language, facts, input.own);
  const paragraphs =
    kind === 'invitation' && !texts.isOwn && input.addition?.trim()
      ? [...texts.paragraphs, input.addition]
      : texts.paragraphs;
  const layout = renderMailLayout({
    title: texts.title,
    paragraphs,
    ...(texts.button ? { button: { label: texts.button, url: facts.link } } : {}),
    footer: translatorFor(language, 'mail')('footer', { sender: facts.sender }),
    language,
    brand: {
      name: facts.sender,
      accent: accentOf(brand),
      logo: brand.logo
        ? { url: `${ctx.partyBaseUrl()}${logoPath(brand.logo)}`, width: brand.logo.width, height: brand.logo.height }
        : undefined,
    },
  });
  return { subject: texts.subject, html: layout.html, text: layout.text, sms: texts.sms, isOwn: texts.isOwn };
}
