import {
  MAIL_WORD_KINDS,
  ZMailWordsSettingsSchema,
  type MailWordKind,
  type TMailWords,
  type TMailWordsSettings,
} from '../../shared/api/brand';
import type { Language } from '../../shared/api/enums';
import type { ReadContext } from '../context/read-context';

export const MAIL_WORDS_KEY = 'brand.mail_words';

const EMPTY: TMailWordsSettings = { invitation: {}, reminder: {}, signed: {} };

/** The office's own words of every mail and language (none saved: SignDesk's words everywhere). */
export async function readMailWords(ctx: ReadContext): Promise<TMailWordsSettings> {
  const stored = await ctx.repos.settings.get(MAIL_WORDS_KEY);
  if (!stored) return EMPTY;
  try {
    const parsed = ZMailWordsSettingsSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The office's words for one mail in one language, if it wrote any. */
export async function mailWordsFor(
  ctx: ReadContext,
  kind: string,
  language: Language,
): Promise<TMailWords | undefined> {
  if (!(MAIL_WORD_KINDS as readonly string[]).includes(kind)) return undefined;
  return (await readMailWords(ctx))[kind as MailWordKind][language];
}

/** What the placeholders of the office's words stand for in one mail: plain text, never markup. */
export type MailWordValues = {
  party_name: string;
  contract_name: string;
  link: string;
  expiry: string;
  office_name: string;
};

/**
 * The office's words with their placeholders filled in, as plain text: the subject on one line
 * (a value's line breaks become spaces, so no value can start a header), the body as
 * paragraphs (a blank line starts one). Values are text: the mail layout escapes every one of
 * them for HTML, so a party's name such as `<b>` shows as written. Filling is one pass over
 * the office's words: a value that looks like a placeholder stays as written.
 */
export function fillMailWords(words: TMailWords, values: MailWordValues): { subject: string; paragraphs: string[] } {
  const fill = (text: string) =>
    text.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
      Object.hasOwn(values, name) ? values[name as keyof MailWordValues] : whole,
    );
  const subject = fill(words.subject)
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .trim();
  const paragraphs = fill(words.body.replace(/\r\n?/g, '\n'))
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
  return { subject, paragraphs };
}
