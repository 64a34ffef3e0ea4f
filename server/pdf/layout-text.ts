import type { PDFFont } from 'pdf-lib';
import { LINE_BREAK, type Run } from './parse-markdown';

export type Fonts = { regular: PDFFont; bold: PDFFont; italic: PDFFont; boldItalic: PDFFont };
export type Segment = { text: string; font: PDFFont };
export type TextLine = Segment[];

const REPLACEMENTS: Record<string, string> = {
  '\u2011': '-',
  '\u2212': '-',
  '\u2192': '->',
  '\u2190': '<-',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2713': 'v',
  '\u2714': 'v',
  '\u00ad': '',
};

/**
 * The standard fonts speak WinAnsi: every letter of English, Swedish and the other Western
 * European languages. Other characters become their base letter (ő → o) or a look-alike,
 * else `?`, so that no text can make rendering fail.
 */
export function makeSanitizer(font: PDFFont): (text: string) => string {
  const supported = new Set(font.getCharacterSet());
  const cache = new Map<string, string>();
  const fix = (char: string): string => {
    if (char === '\n' || supported.has(char.codePointAt(0) ?? -1)) return char;
    const cached = cache.get(char);
    if (cached !== undefined) return cached;
    let replacement = REPLACEMENTS[char];
    if (replacement === undefined) {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      replacement = base !== '' && [...base].every((c) => supported.has(c.codePointAt(0) ?? -1)) ? base : '?';
    }
    cache.set(char, replacement);
    return replacement;
  };
  return (text) => Array.from(text.normalize('NFC'), fix).join('');
}

export function fontOf(fonts: Fonts, run: { isBold: boolean; isItalic: boolean }): PDFFont {
  if (run.isBold) return run.isItalic ? fonts.boldItalic : fonts.bold;
  return run.isItalic ? fonts.italic : fonts.regular;
}

export function widthOfLine(line: TextLine, size: number): number {
  return line.reduce((sum, segment) => sum + segment.font.widthOfTextAtSize(segment.text, size), 0);
}

/** Breaks styled runs into lines no wider than `width`; a word longer than a line is split. */
export function wrapRuns(runs: readonly Run[], fonts: Fonts, size: number, width: number): TextLine[] {
  const lines: TextLine[] = [[]];
  let lineWidth = 0;
  let hasPendingSpace = false;

  const current = () => lines[lines.length - 1] as TextLine;
  const newLine = () => {
    lines.push([]);
    lineWidth = 0;
    hasPendingSpace = false;
  };
  const append = (text: string, font: PDFFont) => {
    const line = current();
    const last = line.at(-1);
    if (last && last.font === font) last.text += text;
    else line.push({ text, font });
    lineWidth += font.widthOfTextAtSize(text, size);
  };
  const placeWord = (word: string, font: PDFFont) => {
    const wordWidth = font.widthOfTextAtSize(word, size);
    const spaceWidth = hasPendingSpace ? font.widthOfTextAtSize(' ', size) : 0;
    if (lineWidth + spaceWidth + wordWidth <= width) {
      append(hasPendingSpace ? ` ${word}` : word, font);
      hasPendingSpace = false;
      return;
    }
    if (current().length > 0) newLine();
    if (wordWidth <= width) {
      append(word, font);
      return;
    }
    for (const char of word) {
      if (lineWidth + font.widthOfTextAtSize(char, size) > width && current().length > 0) newLine();
      append(char, font);
    }
  };

  for (const run of runs) {
    const font = fontOf(fonts, run);
    run.text.split(LINE_BREAK).forEach((part, index) => {
      if (index > 0) newLine();
      for (const token of part.split(/(\s+)/)) {
        if (token === '') continue;
        if (/^\s+$/.test(token)) hasPendingSpace = current().length > 0;
        else placeWord(token, font);
      }
    });
  }
  return lines;
}
