/**
 * The Unicode Bidirectional Algorithm (UAX #9) as far as one line of the audit page needs it:
 * no explicit embeddings or isolates (their control characters are dropped), one paragraph
 * level given by the page's language. It resolves each character's level (rules W1–W7, N1–N2,
 * I1–I2) and returns the line in visual order (L2), with brackets mirrored at odd levels (L4).
 * pdf-lib draws left to right and does no bidi itself.
 */

type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'AN' | 'ES' | 'ET' | 'CS' | 'NSM' | 'WS' | 'ON';

const RTL_LETTERS = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const ARABIC_LETTERS = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u;
const CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MIRRORED: Record<string, string> = {
  '(': ')',
  ')': '(',
  '[': ']',
  ']': '[',
  '{': '}',
  '}': '{',
  '<': '>',
  '>': '<',
  '«': '»',
  '»': '«',
  '‹': '›',
  '›': '‹',
};

function classOf(char: string): BidiClass {
  const code = char.codePointAt(0)!;
  if (code >= 0x30 && code <= 0x39) return 'EN';
  if (code >= 0x6f0 && code <= 0x6f9) return 'EN';
  if ((code >= 0x660 && code <= 0x669) || code === 0x66b || code === 0x66c) return 'AN';
  if (char === '+' || char === '-' || char === '\u2212') return 'ES';
  if (/[#$%°±\u00a2-\u00a5\u2030\u2031\u20a0-\u20cf\u066a]/u.test(char)) return 'ET';
  if (/[,.:/\u00a0\u060c\u202f]/u.test(char)) return 'CS';
  if (/\p{M}/u.test(char)) return 'NSM';
  if (/\s/u.test(char)) return 'WS';
  if (RTL_LETTERS.test(char)) return ARABIC_LETTERS.test(char) ? 'AL' : 'R';
  if (/[\p{L}\p{N}]/u.test(char)) return 'L';
  return 'ON';
}

/** Whether the text holds a character written right to left. */
export const hasRightToLeft = (text: string): boolean => RTL_LETTERS.test(text);
/** Whether a character is of the Arabic script (drawn with the Arabic face, shaped by fontkit). */
export const isArabicScript = (char: string): boolean => ARABIC_LETTERS.test(char);

/** Each character's embedding level in a paragraph of level `base` (0: left to right, 1: right to left). */
export function resolveLevels(chars: readonly string[], base: 0 | 1): number[] {
  const types: BidiClass[] = chars.map(classOf);
  const sos: BidiClass = base === 1 ? 'R' : 'L';
  // W1: a mark takes the type of the character before it.
  types.forEach((type, index) => {
    if (type === 'NSM') types[index] = index === 0 ? sos : types[index - 1]!;
  });
  // W2, W3: European numbers after Arabic letters are Arabic numbers; AL is R.
  let lastStrong: BidiClass = sos;
  types.forEach((type, index) => {
    if (type === 'L' || type === 'R' || type === 'AL') lastStrong = type;
    else if (type === 'EN' && lastStrong === 'AL') types[index] = 'AN';
  });
  types.forEach((type, index) => {
    if (type === 'AL') types[index] = 'R';
  });
  // W4: one separator between two numbers of a kind joins them.
  for (let index = 1; index < types.length - 1; index += 1) {
    const [before, type, after] = [types[index - 1], types[index], types[index + 1]];
    if (type === 'ES' && before === 'EN' && after === 'EN') types[index] = 'EN';
    else if (type === 'CS' && before === after && (before === 'EN' || before === 'AN')) types[index] = before!;
  }
  // W5: terminators next to European numbers are part of them.
  for (let index = 0; index < types.length; index += 1) {
    if (types[index] !== 'ET') continue;
    let end = index;
    while (end < types.length && types[end] === 'ET') end += 1;
    if (types[index - 1] === 'EN' || types[end] === 'EN') for (let at = index; at < end; at += 1) types[at] = 'EN';
    index = end - 1;
  }
  // W6: other separators and terminators are neutral.
  types.forEach((type, index) => {
    if (type === 'ES' || type === 'ET' || type === 'CS') types[index] = 'ON';
  });
  // W7: European numbers after L (or at the start of a left-to-right paragraph) are L.
  lastStrong = sos;
  types.forEach((type, index) => {
    if (type === 'L' || type === 'R') lastStrong = type;
    else if (type === 'EN' && lastStrong === 'L') types[index] = 'L';
  });
  // N1, N2: neutrals between two of one direction take it (numbers count as R), else the paragraph's.
  const strongOf = (type: BidiClass | undefined): 'L' | 'R' | undefined =>
    type === 'L' ? 'L' : type === 'R' || type === 'EN' || type === 'AN' ? 'R' : undefined;
  for (let index = 0; index < types.length; index += 1) {
    if (strongOf(types[index])) continue;
    let end = index;
    while (end < types.length && !strongOf(types[end])) end += 1;
    const before = index === 0 ? strongOf(sos) : strongOf(types[index - 1]);
    const after = end === types.length ? strongOf(sos) : strongOf(types[end]);
    const resolved = before === after ? before! : base === 1 ? 'R' : 'L';
    for (let at = index; at < end; at += 1) types[at] = resolved;
    index = end - 1;
  }
  // I1, I2: levels from the resolved types.
  const levels = types.map((type) =>
    base === 0
      ? type === 'R'
        ? 1
        : type === 'AN' || type === 'EN'
          ? 2
          : 0
      : type === 'L' || type === 'EN' || type === 'AN'
        ? 2
        : 1,
  );
  // L1: whitespace at the end of the line is at the paragraph's level.
  for (let index = chars.length - 1; index >= 0 && /\s/u.test(chars[index]!); index -= 1) levels[index] = base;
  return levels;
}

export type VisualChar = { char: string; level: number };

/** The line in the order it is seen, left to right (L2), brackets at odd levels mirrored (L4). */
export function visualOrder(text: string, base: 0 | 1): VisualChar[] {
  const chars = Array.from(text.replace(CONTROLS, ''));
  const levels = resolveLevels(chars, base);
  const items: VisualChar[] = chars.map((char, index) => ({ char, level: levels[index]! }));
  const highest = Math.max(0, ...levels);
  const lowestOdd = Math.min(...levels.filter((level) => level % 2 === 1), highest + 1);
  for (let level = highest; level >= lowestOdd; level -= 1) {
    for (let index = 0; index < items.length; index += 1) {
      if (items[index]!.level < level) continue;
      let end = index;
      while (end < items.length && items[end]!.level >= level) end += 1;
      const reversed = items.slice(index, end).reverse();
      items.splice(index, end - index, ...reversed);
      index = end - 1;
    }
  }
  return items.map((item) =>
    item.level % 2 === 1 && MIRRORED[item.char] ? { char: MIRRORED[item.char]!, level: item.level } : item,
  );
}
