import type { Language } from '../../shared/api/enums';
import type { KeyOf } from '../../shared/i18n/catalogues';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { createTranslator, type Translate } from '../../shared/i18n/translator';

/**
 * The verify page's texts: the `verify` namespace of the catalogue of its language, written
 * into the page by the server (another language at /sign/i18n/<code>/verify.json).
 */
export type VerifyKey = KeyOf<'verify'>;
export type VerifyTranslate = Translate<VerifyKey>;
export type VerifyTexts = { language: Language; messages: Record<string, string> };

export const verifyTranslator = (texts: VerifyTexts): VerifyTranslate =>
  createTranslator(LANGUAGE_INFO[texts.language].locale, texts.messages);

/** A key of the page's texts when it is one (a party's role from the server may be new to this page). */
export const isVerifyKey = (texts: VerifyTexts, key: string): key is VerifyKey => Object.hasOwn(texts.messages, key);
