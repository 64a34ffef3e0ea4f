import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Language } from '../../shared/api/enums';
import { pickLanguage } from '../../shared/browser-language';
import { directionOf, isLanguage } from '../../shared/i18n/languages';
import { signingTranslator, type SigningTexts, type SigningTranslate } from './i18n';

const STORAGE_KEY = 'signdesk.sign.language';

function stored(): Language | undefined {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : undefined;
  } catch {
    // Storage may be refused (a framed page under strict privacy settings): the choice lasts the visit.
    return undefined;
  }
}

/** The browser's languages, most preferred first (the same list its Accept-Language header carries). */
const browserLanguages = (): readonly string[] =>
  navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];

/**
 * The page's language: the party's own choice (remembered in this browser), else the first of
 * the browser's languages the page speaks (Accept-Language / navigator.languages), else the
 * contract's language. The server picks the first screen's language by the same rule.
 */
export function useLanguage(contractLanguage: Language | undefined): [Language, (language: Language) => void] {
  const [chosen, setChosen] = useState<Language | undefined>(stored);
  const language = chosen ?? pickLanguage(browserLanguages(), contractLanguage ?? 'en');
  const choose = useCallback((next: Language) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // See stored().
    }
    setChosen(next);
  }, []);
  return [language, choose];
}

const fetched = new Map<Language, Promise<SigningTexts>>();

/** A language's texts from the server, asked once per page. */
function fetchTexts(language: Language): Promise<SigningTexts> {
  let texts = fetched.get(language);
  if (!texts) {
    texts = fetch(`/sign/i18n/${language}/signing.json`, { credentials: 'omit' }).then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return { language, messages: (await response.json()) as Record<string, string> };
    });
    texts.catch(() => fetched.delete(language));
    fetched.set(language, texts);
  }
  return texts;
}

/**
 * The translating function of the language, from the texts the server wrote into the page when
 * they are that language's, else fetched; until they arrive the page keeps the texts it has (or
 * has none, and shows its spinner). `<html lang dir>` follow the texts shown.
 */
export function useTexts(language: Language, initial: SigningTexts | undefined): SigningTranslate | undefined {
  const [loaded, setLoaded] = useState<SigningTexts | undefined>(initial);
  const texts = loaded?.language === language ? loaded : undefined;
  useEffect(() => {
    if (texts) return;
    let isCurrent = true;
    fetchTexts(language).then(
      (next) => isCurrent && setLoaded(next),
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [language, texts]);
  const shown = texts ?? loaded;
  useEffect(() => {
    if (!shown) return;
    document.documentElement.lang = shown.language;
    document.documentElement.dir = directionOf(shown.language);
  }, [shown]);
  return useMemo(() => (shown ? signingTranslator(shown) : undefined), [shown]);
}
