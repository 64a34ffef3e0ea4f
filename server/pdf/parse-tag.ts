import { ANNOTATION_TYPES, type AnnotationType } from '../../shared/api/enums';

/** What a tag's options (`{{text:2;label=Company number;w=150}}`) ask of its field. */
export type TagOptions = {
  /** The field's width and height in points (instead of the tag's own). */
  width?: number;
  height?: number;
  label?: string;
  hint?: string;
  required?: boolean;
  /** The choices of a field that offers some (`options=A|B|C`). */
  choices?: string[];
};

export type ParsedTag =
  { ok: true; type: AnnotationType; position: number; options: TagOptions } | { ok: false; problem: string };

export const TAG_LIMITS = { label: 100, hint: 200, choices: 50, choice: 100, size: [4, 1000] } as const;
/** The types whose fields offer choices; a type named here but not in ANNOTATION_TYPES is simply not a type yet. */
const TYPES_WITH_CHOICES = new Set(['DROPDOWN', 'RADIO']);
const KEYS: Record<string, keyof TagOptions> = {
  w: 'width',
  width: 'width',
  h: 'height',
  height: 'height',
  label: 'label',
  hint: 'hint',
  required: 'required',
  options: 'choices',
};

/**
 * What is inside `{{…}}` when it is meant as a tag: a word then `:` or `;`, or a type's name
 * alone. Anything else (`{{client_name}}`, a template's placeholder) is the document's own text.
 */
export function isMeantAsTag(inner: string): boolean {
  const head = inner.trim();
  return /^[a-z][\w-]*\s*[:;]/i.test(head) || typeNamed(head) !== undefined;
}

const typeNamed = (word: string): AnnotationType | undefined =>
  ANNOTATION_TYPES.find((type) => type === word.trim().toUpperCase());

/** `type:n` then `;key=value` options; the types are the API's annotation types, any case. */
export function parseTag(inner: string): ParsedTag {
  const [head = '', ...rest] = inner.split(';');
  const [typeWord = '', position, ...extra] = head.split(':').map((part) => part.trim());
  const type = typeNamed(typeWord);
  if (!type) {
    const guess = closestType(typeWord);
    return {
      ok: false,
      problem: `"${typeWord}" is not a field type${guess ? ` (did you mean ${guess.toLowerCase()}?)` : ''}; the types are ${ANNOTATION_TYPES.map((name) => name.toLowerCase()).join(', ')}`,
    };
  }
  if (position === undefined || extra.length > 0 || !/^\d{1,3}$/.test(position) || Number(position) < 1)
    return {
      ok: false,
      problem: `a tag names its party by number after a colon, e.g. {{${typeWord.toLowerCase()}:1}} (1 = the first party added)`,
    };
  const options: TagOptions = {};
  for (const part of rest) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    const key = (equals < 0 ? part : part.slice(0, equals)).trim().toLowerCase();
    const value = equals < 0 ? '' : part.slice(equals + 1).trim();
    const name = KEYS[key];
    if (!name)
      return {
        ok: false,
        problem: `"${key}" is not a tag option; the options are w, h, label, hint, required, options`,
      };
    if (options[name] !== undefined) return { ok: false, problem: `the option ${key} is given twice` };
    const problem = setOption(options, name, key, value, type);
    if (problem) return { ok: false, problem };
  }
  if (TYPES_WITH_CHOICES.has(type) && !options.choices)
    return {
      ok: false,
      problem: `a ${type.toLowerCase()} tag names its choices, e.g. {{${typeWord.toLowerCase()}:${position};options=Monthly|Yearly}}`,
    };
  return { ok: true, type, position: Number(position), options };
}

function setOption(options: TagOptions, name: keyof TagOptions, key: string, value: string, type: AnnotationType) {
  switch (name) {
    case 'width':
    case 'height': {
      const [min, max] = TAG_LIMITS.size;
      const points = /^\d{1,4}(\.\d{1,2})?$/.test(value) ? Number(value) : NaN;
      if (!(points >= min && points <= max))
        return `${key}=${value} is not a size: give points from ${min} to ${max}, e.g. ${key}=40`;
      options[name] = points;
      return undefined;
    }
    case 'label':
    case 'hint':
      if (value === '' || value.length > TAG_LIMITS[name])
        return `${key}= takes text of 1 to ${TAG_LIMITS[name]} characters`;
      options[name] = value;
      return undefined;
    case 'required':
      if (!/^(true|false|yes|no)$/i.test(value)) return `required=${value} is neither true nor false`;
      options.required = /^(true|yes)$/i.test(value);
      return undefined;
    case 'choices': {
      if (!TYPES_WITH_CHOICES.has(type))
        return `options= is only for a field that offers choices, not ${type.toLowerCase()}`;
      const choices = value.split('|').map((choice) => choice.trim());
      if (
        choices.length > TAG_LIMITS.choices ||
        choices.some((choice) => choice === '' || choice.length > TAG_LIMITS.choice)
      )
        return `options= takes 1 to ${TAG_LIMITS.choices} choices of 1 to ${TAG_LIMITS.choice} characters, separated by |`;
      if (new Set(choices).size !== choices.length) return 'options= takes choices that are all different';
      options.choices = choices;
      return undefined;
    }
  }
}

/** The type a misspelt word most likely meant: at most two letters off. */
function closestType(word: string): AnnotationType | undefined {
  const upper = word.toUpperCase();
  let best: { type: AnnotationType; distance: number } | undefined;
  for (const type of ANNOTATION_TYPES) {
    const distance = editDistance(upper, type);
    if (distance <= 2 && (!best || distance < best.distance)) best = { type, distance };
  }
  return best?.type;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
