import { LANGUAGES, type Language } from './api/enums';

/** Tags a browser may send for a language we speak under another code: Norwegian as such, and Nynorsk, read Bokmål. */
const ALIASES: Record<string, Language> = { no: 'nb', nn: 'nb' };

/**
 * The page's language from what the browser asks for, in its order of preference: the first
 * entry whose primary subtag is a language the page speaks (`sv-SE` → sv, `en-US` → en,
 * `no` → nb), else `fallback` (the contract's language). `*` and languages the page lacks are
 * passed over.
 */
export function pickLanguage(preferred: readonly string[], fallback: Language): Language {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    const match = LANGUAGES.find((language) => language === primary) ?? ALIASES[primary];
    if (match) return match;
  }
  return fallback;
}

/** An Accept-Language header's tags, most preferred first (by q, then by order); q=0 means "not this". */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .slice(0, 1_000)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
