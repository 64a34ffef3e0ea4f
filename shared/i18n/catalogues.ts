import type { Language } from '../api/enums';
import ar from './catalogues/ar.json';
import da from './catalogues/da.json';
import de from './catalogues/de.json';
import en from './catalogues/en.json';
import es from './catalogues/es.json';
import fi from './catalogues/fi.json';
import fr from './catalogues/fr.json';
import it from './catalogues/it.json';
import nb from './catalogues/nb.json';
import nl from './catalogues/nl.json';
import pl from './catalogues/pl.json';
import pt from './catalogues/pt.json';
import sv from './catalogues/sv.json';
import { LANGUAGE_INFO } from './languages';
import { createTranslator, type Translate } from './translator';

/**
 * What a party reads, one catalogue per language (shared/i18n/catalogues/<code>.json), English
 * defining the keys. Namespaces by surface: `signing` and `verify` (the pages: the server hands
 * a page only its namespace in its language, so the pages' bundles carry no texts), `mail` (mails
 * and SMS), `audit`, `events` and `details` (the sealed PDF's audit page), `document` (a
 * rendered contract's page numbers) and `readme` (the evidence package). Messages are ICU.
 * Imported by the server and by tests; a browser bundle imports only the types.
 */
export type Catalogue = typeof en;
export type Namespace = keyof Catalogue;
export type KeyOf<N extends Namespace> = keyof Catalogue[N] & string;

export const CATALOGUES: Record<Language, Catalogue> = { en, sv, da, nb, fi, de, fr, es, it, nl, pl, pt, ar };

const translators = new Map<string, Translate>();

/** The namespace's messages in the language as a function, made once per process. */
export function translatorFor<N extends Namespace>(language: Language, namespace: N): Translate<KeyOf<N>> {
  const id = `${language}:${namespace}`;
  let translate = translators.get(id);
  if (!translate) {
    const messages = CATALOGUES[language][namespace] as Record<string, string>;
    translate = createTranslator(LANGUAGE_INFO[language].locale, messages);
    translators.set(id, translate);
  }
  return translate;
}

/** A message of the namespace that may be missing (an event or detail new to the catalogue): undefined then. */
export function optionalMessage<N extends Namespace>(
  language: Language,
  namespace: N,
  key: string,
): string | undefined {
  const messages = CATALOGUES[language][namespace] as Record<string, string>;
  return Object.hasOwn(messages, key) ? translatorFor(language, namespace)(key as KeyOf<N>) : undefined;
}
