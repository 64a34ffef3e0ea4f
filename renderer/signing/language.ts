import { useCallback, useEffect, useState } from 'react';
import type { Language } from '../../shared/api/enums';
import { pickLanguage } from '../../shared/browser-language';

const STORAGE_KEY = 'signdesk.sign.language';

function stored(): Language | undefined {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === 'en' || value === 'sv' ? value : undefined;
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
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
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
