import type { MailWordKind, TMailPreview, TMailWords } from '../../shared/api/brand';
import type { Language } from '../../shared/api/enums';
import { formatDeadline } from '../../shared/i18n/languages';
import { translatorFor } from '../../shared/i18n/catalogues';
import type { AppContext } from '../context/app-context';
import type { ReadContext } from '../context/read-context';
import { readBrand } from '../brand/read-brand';
import { mailWordsFor } from '../brand/mail-words';
import { sendTestMail, type TestMailOutcome } from '../messages/send-test-mail';
import { composePartyMail, type ComposedMail } from './compose-party-mail';

export type MailWordsInput = { kind: MailWordKind; language: Language; words?: TMailWords | undefined };

/** Example values for a preview: what a real mail would hold, for a party named as a person could be. */
const EXAMPLE = { party: 'Alex Berg', contract: 'Lease agreement 2026', days: 14 };

/**
 * The mail one of the office's own words would make (the form's words, else the saved ones,
 * else SignDesk's), composed exactly as a real one is, with example values in the placeholders.
 */
async function composeExample(ctx: ReadContext, input: MailWordsInput): Promise<ComposedMail> {
  const brand = await readBrand(ctx);
  const own = input.words ?? (await mailWordsFor(ctx, input.kind, input.language));
  const path = input.kind === 'signed' ? '/sign/example/signed.pdf' : '/sign/example';
  return composePartyMail(ctx, {
    kind: input.kind,
    language: input.language,
    brand,
    own,
    facts: {
      party: EXAMPLE.party,
      sender: brand.officeName || 'SignDesk',
      name: EXAMPLE.contract,
      isViewer: false,
      link: `${ctx.partyBaseUrl()}${path}`,
      expires: formatDeadline(ctx.now() + EXAMPLE.days * 86_400_000, input.language, ctx.config.timeZone),
    },
  });
}

export async function previewMailWords(ctx: ReadContext, input: MailWordsInput): Promise<TMailPreview> {
  const mail = await composeExample(ctx, input);
  return { subject: mail.subject, html: mail.html, text: mail.text, is_own: mail.isOwn };
}

/** The preview sent now through the SMTP settings in force, its subject marked as a test in the mail's language. */
export async function testMailWords(ctx: AppContext, input: MailWordsInput & { to: string }): Promise<TestMailOutcome> {
  const mail = await composeExample(ctx, input);
  const t = translatorFor(input.language, 'mail');
  const brand = await readBrand(ctx);
  return sendTestMail(
    ctx,
    input.to,
    {},
    {
      subject: `[${t('testTitle')}] ${mail.subject}`,
      text: `${t('testNote')}\n\n${mail.text}`,
      html: mail.html.replace(
        /(<body[^>]*>)/,
        `$1<p style="margin:0;padding:8px;font-family:sans-serif;font-size:12px;color:#6b7385;text-align:center;">${escapeNote(t('testNote'))}</p>`,
      ),
      fromName: brand.officeName || 'SignDesk',
    },
  );
}

const escapeNote = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
