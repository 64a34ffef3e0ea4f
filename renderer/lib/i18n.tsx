import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ADMIN_CATALOGUES } from '../i18n/catalogues';
import { en, type MessageKey } from '../i18n/en';
import { createTranslator } from '../../shared/i18n/translator';

/** A language of the admin UI: the code of one of its catalogues (renderer/i18n/<code>.ts). */
export type Language = string;
export const LANGUAGES: { code: Language; label: string }[] = Object.entries(ADMIN_CATALOGUES)
  .map(([code, catalogue]) => ({ code, label: catalogue.name }))
  .sort((a, b) => (a.code === 'en' ? -1 : b.code === 'en' ? 1 : a.label.localeCompare(b.label)));

const STORAGE_KEY = 'signdesk.language';

/** The values a text's placeholders take. */
export type TextValues = Record<string, string | number>;
type Translate = (key: MessageKey, values?: TextValues) => string;
type I18nValue = { language: Language; setLanguage: (language: Language) => void; t: Translate };

function initialLanguage(): Language {
  const stored = window.localStorage.getItem(STORAGE_KEY);
  if (stored && stored in ADMIN_CATALOGUES) return stored;
  const browser = navigator.language.toLowerCase().split('-')[0] ?? 'en';
  return browser in ADMIN_CATALOGUES ? browser : 'en';
}

/**
 * The admin UI's texts by i18next with ICU messages, as the parties' pages (shared/i18n). Its
 * numbers go in as written (a port, an id, a count: "8750", not "8,750").
 */
function translatorOf(language: Language): Translate {
  const translate = createTranslator(language, ADMIN_CATALOGUES[language]?.messages ?? en);
  return (key, values) =>
    translate(key, values && Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)])));
}

const I18nContext = createContext<I18nValue>({ language: 'en', setLanguage: () => undefined, t: (key) => en[key] });

/** The admin UI's languages (English and Swedish, and any catalogue added); the choice is remembered in this browser. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    window.localStorage.setItem(STORAGE_KEY, next);
    setLanguageState(next);
  }, []);
  const t = useMemo(() => translatorOf(language), [language]);
  return <I18nContext.Provider value={{ language, setLanguage, t }}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);
export const useT = () => useContext(I18nContext).t;
