import type { Language } from '../../shared/api/enums';
import type { KeyOf } from '../../shared/i18n/catalogues';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { createTranslator, type Translate } from '../../shared/i18n/translator';

/**
 * The signing page's texts: the `signing` namespace of the catalogue of its language
 * (shared/i18n/catalogues/<code>.json). The page's bundle holds none of them: the server writes
 * the first screen's language into the page and hands any other at /sign/i18n/<code>/signing.json.
 */
export type SigningKey = KeyOf<'signing'>;
export type SigningTranslate = Translate<SigningKey>;
export type SigningTexts = { language: Language; messages: Record<string, string> };

export const signingTranslator = (texts: SigningTexts): SigningTranslate =>
  createTranslator(LANGUAGE_INFO[texts.language].locale, texts.messages);
