/**
 * The light Markdown of templates: headings, paragraphs, bold,
 * italics, bulleted and numbered lists, rules and hard line breaks. Anything else is text.
 */
export type Run = { text: string; isBold: boolean; isItalic: boolean };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'item'; marker: string; depth: number; runs: Run[] }
  | { kind: 'rule' };

/** A hard line break inside a paragraph or item. */
export const LINE_BREAK = '\n';

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const MAX_DEPTH = 4;

/** Splits inline text into styled runs; a marker without a partner is literal text. */
export function parseInline(text: string): Run[] {
  const tokens = text.split(/(\\[\\*_#`+\-.!]|\*\*|__|\*|_)/).filter((token) => token !== '');
  const runs: Run[] = [];
  let isBold = false;
  let isItalic = false;
  const push = (piece: string) => {
    const last = runs.at(-1);
    if (last && last.isBold === isBold && last.isItalic === isItalic) last.text += piece;
    else runs.push({ text: piece, isBold, isItalic });
  };
  const hasPartner = (marker: string, from: number) => tokens.indexOf(marker, from + 1) !== -1;
  const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);
  const isSpace = (char: string | undefined) => char === undefined || /\s/.test(char);
  tokens.forEach((token, index) => {
    if (token.length === 2 && token.startsWith('\\')) {
      push(token.slice(1));
      return;
    }
    const isBoldMarker = token === '**' || token === '__';
    if (!isBoldMarker && token !== '*' && token !== '_') {
      push(token);
      return;
    }
    // As in CommonMark: a marker opens before a non-space and closes after one, and `_`
    // only at word edges, so that snake_case and "a * b" stay as they are.
    const before = tokens[index - 1]?.at(-1);
    const after = tokens[index + 1]?.[0];
    const isUnderscore = token.startsWith('_');
    const canOpen = !isSpace(after) && !(isUnderscore && isWordChar(before));
    const canClose = !isSpace(before) && !(isUnderscore && isWordChar(after));
    const isOpen = isBoldMarker ? isBold : isItalic;
    if (isOpen ? canClose : canOpen && hasPartner(token, index)) {
      if (isBoldMarker) isBold = !isBold;
      else isItalic = !isItalic;
    } else {
      push(token);
    }
  });
  return runs;
}

function joinLines(lines: string[]): string {
  // Two trailing spaces or a trailing backslash end a line for real; other breaks are spaces.
  return lines
    .map((line, index) => {
      const isLast = index === lines.length - 1;
      if (!isLast && (/ {2,}$/.test(line) || /\\$/.test(line))) return `${line.replace(/(\s+|\\)$/, '')}${LINE_BREAK}`;
      return isLast ? line.trim() : `${line.trim()} `;
    })
    .join('')
    .trim();
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.normalize('NFC').replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let item: { marker: string; depth: number; lines: string[] } | undefined;

  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', runs: parseInline(joinLines(paragraph)) });
    if (item)
      blocks.push({ kind: 'item', marker: item.marker, depth: item.depth, runs: parseInline(joinLines(item.lines)) });
    paragraph = [];
    item = undefined;
  };

  for (const line of lines) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1]?.length ?? 1, 3) as 1 | 2 | 3;
      blocks.push({ kind: 'heading', level, runs: parseInline(heading[2] ?? '') });
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: 'rule' });
      continue;
    }
    const listItem = ITEM.exec(line);
    if (listItem) {
      flush();
      const depth = Math.min(Math.floor((listItem[1]?.length ?? 0) / 2), MAX_DEPTH);
      const marker = /^\d/.test(listItem[2] ?? '') ? `${(listItem[2] ?? '').slice(0, -1)}.` : '•';
      item = { marker, depth, lines: [listItem[3] ?? ''] };
      continue;
    }
    if (item) item.lines.push(line);
    else paragraph.push(line);
  }
  flush();
  return blocks;
}
