import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../shared/api/enums';
import { CATALOGUES, type Catalogue } from '../../shared/i18n/catalogues';
import { LANGUAGE_INFO } from '../../shared/i18n/languages';
import { ADMIN_CATALOGUES } from '../../renderer/i18n/catalogues';
import { catalogueDifferences, placeholdersOf, sourcesUnder, unusedKeys } from '../helpers/catalogue-check';

const english = CATALOGUES.en;
const namespaces = Object.keys(english) as (keyof Catalogue)[];
const partySources = sourcesUnder('server', 'renderer/signing', 'renderer/verify', 'shared');

/** Every problem of every party catalogue against English, one line each. */
function partyProblems(catalogues: Record<string, Catalogue>): string[] {
  return Object.entries(catalogues).flatMap(([language, catalogue]) => [
    ...namespaces.flatMap((namespace) =>
      catalogueDifferences(
        english[namespace] as Record<string, string>,
        (catalogue[namespace] ?? {}) as Record<string, string>,
        LANGUAGE_INFO[language as keyof typeof LANGUAGE_INFO]?.locale ?? language,
        `${language} ${namespace}.`,
      ),
    ),
    ...Object.keys(catalogue)
      .filter((namespace) => !(namespace in english))
      .map((namespace) => `${language} ${namespace}: not in English`),
  ]);
}

describe('the catalogues: every language says everything English says, with the same placeholders', () => {
  it('has one catalogue per language of the API, and no other', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LANGUAGES].sort());
  });

  it('the parties’ catalogues: no key missing or extra, each message ICU, the same placeholders as English', () => {
    expect(Object.values(english).reduce((sum, messages) => sum + Object.keys(messages).length, 0)).toBeGreaterThan(
      350,
    );
    expect(partyProblems(CATALOGUES)).toEqual([]);
  });

  it('the parties’ catalogues: every English key is used by the code', () => {
    const unused = namespaces.flatMap((namespace) => {
      const keys = Object.keys(english[namespace]);
      // Events are named by the code that writes them ('party.signed'), details by the keys of what it logs.
      if (namespace === 'details')
        return keys.filter((key) => !new RegExp(`\\b${key}\\b`).test(partySources)).map((key) => `${namespace}.${key}`);
      return unusedKeys(keys, partySources).map((key) => `${namespace}.${key}`);
    });
    expect(unused).toEqual([]);
  });

  it('the admin UI’s catalogues: English and Swedish at least, each complete, ICU, with English’s placeholders, every key used', () => {
    expect(Object.keys(ADMIN_CATALOGUES)).toEqual(expect.arrayContaining(['en', 'sv']));
    const adminEnglish = ADMIN_CATALOGUES.en!.messages;
    expect(Object.keys(adminEnglish).length).toBeGreaterThan(500);
    const problems = Object.entries(ADMIN_CATALOGUES).flatMap(([language, catalogue]) =>
      catalogueDifferences(adminEnglish, catalogue.messages, language, `admin ${language} `),
    );
    expect(problems).toEqual([]);
    expect(unusedKeys(Object.keys(adminEnglish), sourcesUnder('renderer', 'shared'))).toEqual([]);
  });

  it('fails on a key removed, a placeholder changed, an unparsable message and a key nobody uses (the check can fail)', () => {
    const broken = structuredClone(CATALOGUES) as Record<string, Catalogue>;
    delete (broken.fi!.signing as Record<string, string>).retry;
    (broken.de!.mail as Record<string, string>).greeting = 'Hallo {partei},';
    (broken.pl!.signing as Record<string, string>).fillRequired = '{n, plural, one {# pole}}';
    const problems = partyProblems(broken);
    expect(problems).toContain('fi signing.retry: missing');
    expect(problems).toContain('de mail.greeting: placeholders {partei}, English has {party}');
    expect(problems.filter((line) => line.startsWith('pl signing.fillRequired: '))).toHaveLength(1);
    expect(problems).toHaveLength(3);
    expect(unusedKeys(['retry', 'neverWritten.anywhere'], partySources)).toEqual(['neverWritten.anywhere']);
    expect(placeholdersOf('{total, plural, one {{left} of # field} other {{left} of # fields}}')).toEqual([
      'left',
      'total',
    ]);
  });
});
