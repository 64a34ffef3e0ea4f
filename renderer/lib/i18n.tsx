import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { en, type MessageKey } from '../i18n/en';
import { sv } from '../i18n/sv';
import { fillText, type TextValues } from './translate';

export type Language = 'en' | 'sv';
export const LANGUAGES: { code: Language; label: string }[] = [
  { code: 'en', label: 'English' },
  { code: 'sv', label: 'Svenska' },
];

const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, sv };
const STORAGE_KEY = 'signdesk.language';

type Translate = (key: MessageKey, values?: TextValues) => string;
type I18nValue = { language: Language; setLanguage: (language: Language) => void; t: Translate };

function initialLanguage(): Language {
  const stored = window.localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'sv') return stored;
  return navigator.language.toLowerCase().startsWith('sv') ? 'sv' : 'en';
}

const I18nContext = createContext<I18nValue>({ language: 'en', setLanguage: () => undefined, t: (key) => en[key] });

/** English and Swedish; the choice is remembered in this browser. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(initialLanguage);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  const setLanguage = useCallback((next: Language) => {
    window.localStorage.setItem(STORAGE_KEY, next);
    setLanguageState(next);
  }, []);
  const t = useCallback<Translate>(
    (key, values) => {
      return fillText(DICTIONARIES[language][key] ?? en[key] ?? key, values);
    },
    [language],
  );
  return <I18nContext.Provider value={{ language, setLanguage, t }}>{children}</I18nContext.Provider>;
}

export const useI18n = () => useContext(I18nContext);
export const useT = () => useContext(I18nContext).t;
