import { describe, expect, it } from 'vitest';
import { en } from '../../renderer/i18n/en';
import { sv } from '../../renderer/i18n/sv';
import { SIGNING_DICTIONARIES } from '../../renderer/signing/i18n';
import { VERIFY_DICTIONARIES } from '../../renderer/verify/i18n';

/** The `{name}` placeholders of a text, sorted. */
const placeholdersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

/** Keys missing in either language, empty texts, and keys whose placeholders differ between the two. */
function differences(english: Record<string, string>, swedish: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(english), ...Object.keys(swedish)]);
  return [...keys].flatMap((key) => {
    const [a, b] = [english[key], swedish[key]];
    if (a === undefined) return [`${key}: only in Swedish`];
    if (b === undefined) return [`${key}: only in English`];
    if (!a.trim() || !b.trim()) return [`${key}: empty`];
    const [pa, pb] = [placeholdersOf(a), placeholdersOf(b)];
    return pa.join() === pb.join() ? [] : [`${key}: placeholders {${pa.join()}} in English, {${pb.join()}} in Swedish`];
  });
}

describe('the renderer speaks English and Swedish completely', () => {
  it('the admin UI: every key in both languages, with the same placeholders', () => {
    expect(Object.keys(en).length).toBeGreaterThan(500);
    expect(differences(en, sv)).toEqual([]);
  });

  it('the verify page: every key in both languages, with the same placeholders', () => {
    expect(differences(VERIFY_DICTIONARIES.en, VERIFY_DICTIONARIES.sv)).toEqual([]);
  });

  it('the signing page: every key in both languages, with the same placeholders', () => {
    expect(differences(SIGNING_DICTIONARIES.en, SIGNING_DICTIONARIES.sv)).toEqual([]);
  });

  it('catches a key missing in one language and a placeholder lost in translation (the check can fail)', () => {
    expect(differences({ a: 'A {n}', b: 'B' }, { a: 'A' })).toEqual([
      'a: placeholders {n} in English, {} in Swedish',
      'b: only in English',
    ]);
  });
});
