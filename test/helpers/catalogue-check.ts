import fs from 'node:fs';
import path from 'node:path';
import { IntlMessageFormat } from 'intl-messageformat';

type Element = {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
  children?: Element[];
};
const ARGUMENT_TYPES = new Set([1, 2, 3, 4, 5, 6]);
const PLURAL_OR_SELECT = new Set([5, 6]);
/** Names i18next reads as options of t() rather than as values: never a placeholder. */
const RESERVED = new Set([
  'count',
  'context',
  'lng',
  'lngs',
  'ns',
  'defaultValue',
  'ordinal',
  'returnObjects',
  'interpolation',
]);

/** The placeholders of an ICU message (the argument names of plurals and selects too, and those inside them), sorted. */
export function placeholdersOf(message: string, locale = 'en'): string[] {
  const names = new Set<string>();
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (ARGUMENT_TYPES.has(element.type) && element.value) names.add(element.value);
      if (element.options) for (const option of Object.values(element.options)) walk(option.value);
      if (element.children) walk(element.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst() as unknown as Element[]);
  return [...names].sort();
}

/** What is wrong with one message on its own: it does not parse, a plural or select lacks `other`, a reserved name. */
function messageProblems(message: string, locale: string): string[] {
  if (message.trim() === '') return ['empty'];
  let ast: Element[];
  try {
    ast = new IntlMessageFormat(message, locale).getAst() as unknown as Element[];
  } catch (error) {
    return [`does not parse as ICU: ${error instanceof Error ? error.message : String(error)}`];
  }
  const problems: string[] = [];
  const walk = (elements: Element[]) => {
    for (const element of elements) {
      if (PLURAL_OR_SELECT.has(element.type) && element.options && !('other' in element.options))
        problems.push(`{${element.value}} has no "other" case`);
      if (element.value && ARGUMENT_TYPES.has(element.type) && RESERVED.has(element.value))
        problems.push(`{${element.value}} is an i18next option, not a placeholder`);
      if (element.options) for (const option of Object.values(element.options)) walk(option.value);
    }
  };
  walk(ast);
  return problems;
}

/**
 * One catalogue against the English one: keys missing or extra, messages that do not parse,
 * and placeholders that differ from English. Each problem is one line.
 */
export function catalogueDifferences(
  english: Record<string, string>,
  other: Record<string, string>,
  locale: string,
  where = '',
): string[] {
  const lines: string[] = [];
  for (const key of Object.keys(english)) {
    const theirs = other[key];
    if (theirs === undefined) {
      lines.push(`${where}${key}: missing`);
      continue;
    }
    const problems = messageProblems(theirs, locale);
    if (problems.length > 0) {
      lines.push(...problems.map((problem) => `${where}${key}: ${problem}`));
      continue;
    }
    const [mine, yours] = [placeholdersOf(english[key]!), placeholdersOf(theirs, locale)];
    if (mine.join() !== yours.join())
      lines.push(`${where}${key}: placeholders {${yours.join(', ')}}, English has {${mine.join(', ')}}`);
  }
  for (const key of Object.keys(other)) if (!(key in english)) lines.push(`${where}${key}: not in English`);
  return lines;
}

/** The text of every source file under the folders (TypeScript and TSX), joined. */
export function sourcesUnder(...folders: string[]): string {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name)) texts.push(fs.readFileSync(file, 'utf8'));
    }
  };
  for (const folder of folders) walk(path.resolve(folder));
  return texts.join('\n');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Keys the sources never name: a key is used when it appears quoted ('key', "key", `key`), or,
 * for a key with dots, when a template literal builds it from its prefix (`role.${type}`).
 */
export function unusedKeys(keys: readonly string[], sources: string): string[] {
  return keys.filter((key) => {
    if (new RegExp(`['"\`]${escapeRegExp(key)}['"\`]`).test(sources)) return false;
    const dot = key.lastIndexOf('.');
    return !(dot > 0 && sources.includes(`\`${key.slice(0, dot + 1)}\${`));
  });
}
