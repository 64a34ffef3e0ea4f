import i18next from 'i18next';
import ICU from 'i18next-icu';

/** What a message's placeholders take: text, numbers (plurals, number forms) and dates. */
export type MessageValues = Record<string, string | number | Date>;

/** One language's messages of one surface as a function: `t('fieldsLeft', { left: 2, total: 5 })`. */
export type Translate<K extends string = string> = (key: K, values?: MessageValues) => string;

/** Messages by key: ICU message syntax (`{name}`, `{n, plural, one {…} other {…}}`, `{when, date, long}`). */
export type Messages<K extends string = string> = Readonly<Record<K, string>>;

/**
 * The messages of one language as a translating function: i18next with ICU message syntax
 * (i18next-icu over FormatJS's intl-messageformat), so plurals follow the language's own rules
 * (Polish few/many, Arabic zero/two/few/many) and numbers and dates the locale's forms. Keys are
 * flat (a dot is part of the key). A value is put in as it is, never parsed as a message: the
 * caller escapes for its medium (React, the mail's HTML, the PDF's text). A key the messages
 * lack shows as the key; the catalogue test (test/unit/catalogues.test.ts) keeps that from
 * happening in a release.
 */
export function createTranslator<K extends string>(locale: string, messages: Messages<K>): Translate<K> {
  const instance = i18next.createInstance();
  void instance.use(ICU).init({
    lng: locale,
    fallbackLng: false,
    resources: { [locale]: { messages } },
    ns: ['messages'],
    defaultNS: 'messages',
    keySeparator: false,
    nsSeparator: false,
    initAsync: false,
    returnNull: false,
    interpolation: { escapeValue: false },
  });
  return (key, values) => instance.t(key, values ?? {});
}
