import { LANGUAGES, type Language } from '../api/enums';

/** What the parties' surfaces need to know of a language beyond its texts. */
type LanguageInfo = {
  /** Its own name, as a party looks for it in a list of languages. */
  name: string;
  /** The locale whose date, time and number forms it uses (Intl). */
  locale: string;
  /** Written right to left: the page, the mail and the audit page lay out from the right. */
  isRightToLeft: boolean;
};

/** Every language of LANGUAGES (the contract's `language`), in the order a party's language list shows them. */
export const LANGUAGE_INFO: Record<Language, LanguageInfo> = {
  en: { name: 'English', locale: 'en-GB', isRightToLeft: false },
  sv: { name: 'Svenska', locale: 'sv-SE', isRightToLeft: false },
  da: { name: 'Dansk', locale: 'da-DK', isRightToLeft: false },
  nb: { name: 'Norsk bokmål', locale: 'nb-NO', isRightToLeft: false },
  fi: { name: 'Suomi', locale: 'fi-FI', isRightToLeft: false },
  de: { name: 'Deutsch', locale: 'de-DE', isRightToLeft: false },
  fr: { name: 'Français', locale: 'fr-FR', isRightToLeft: false },
  es: { name: 'Español', locale: 'es-ES', isRightToLeft: false },
  it: { name: 'Italiano', locale: 'it-IT', isRightToLeft: false },
  nl: { name: 'Nederlands', locale: 'nl-NL', isRightToLeft: false },
  pl: { name: 'Polski', locale: 'pl-PL', isRightToLeft: false },
  pt: { name: 'Português', locale: 'pt-PT', isRightToLeft: false },
  ar: { name: 'العربية', locale: 'ar', isRightToLeft: true },
};

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/** `rtl` or `ltr`, for an HTML `dir` attribute. */
export const directionOf = (language: Language): 'rtl' | 'ltr' =>
  LANGUAGE_INFO[language].isRightToLeft ? 'rtl' : 'ltr';

/**
 * A moment in the language's own long form, in the zone: "7. joulukuuta 2026 klo 14.03.22".
 * Shown beside the interface's `YYYY-MM-DD HH:MM:SS` (audit page, mails), never instead of it.
 */
export function formatLocalTime(epochMs: number, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(LANGUAGE_INFO[language].locale, {
    dateStyle: 'long',
    timeStyle: 'medium',
    timeZone,
  }).format(epochMs);
}

/** A number in the language's form: 1 234 567 (fi), 1.234.567 (de). */
export const formatNumber = (value: number, language: Language): string =>
  new Intl.NumberFormat(LANGUAGE_INFO[language].locale).format(value);

/** A deadline in the language's long form with the zone it is in: "7. joulukuuta 2026 klo 14.03 (Europe/Stockholm)". */
export function formatDeadline(epochMs: number, language: Language, timeZone: string): string {
  const local = new Intl.DateTimeFormat(LANGUAGE_INFO[language].locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone,
  }).format(epochMs);
  return `${local} (${timeZone})`;
}
