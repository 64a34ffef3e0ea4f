import type { Color, PDFFont, PDFPage } from 'pdf-lib';
import { hasRightToLeft, isArabicScript, visualOrder } from './bidi';
import { wrapWords, truncateWith } from './fit-text';
import { characterSetOf, widthOf } from './seal-fonts';

/** The Arabic faces that go with the Latin ones (embedded only when a text needs them). */
export type ArabicFaces = { regular: PDFFont; bold: PDFFont };

/** Which way a text runs: the page's own (its labels and prose), or by its first strong letter (a name, a value). */
export type TextDirection = 'page' | 'auto';

type Segment = { text: string; font: PDFFont; isShaped: boolean };

/**
 * Writes text on the audit page and the stamps in any direction: a line is put in visual order
 * by the bidi algorithm (bidi.ts), cut into segments by face (Arabic letters in the Arabic face,
 * everything else in the Latin one), and each Arabic segment is handed to pdf-lib in logical
 * order, where fontkit shapes it with the face's GSUB (joining forms, lam-alef) and lays it out
 * right to left. Text with nothing right to left on a left-to-right page takes the plain path:
 * one drawText, as before. Characters no face has become `?`.
 */
export type TextWriter = {
  isRightToLeft: boolean;
  width(font: PDFFont, text: string, size: number, direction?: TextDirection): number;
  /** Draws with the text's left edge at x (in the page's own coordinates: the caller mirrors). */
  draw(
    page: PDFPage,
    text: string,
    at: { x: number; y: number; size: number; font: PDFFont; color: Color; direction?: TextDirection },
  ): void;
  wrap(font: PDFFont, text: string, size: number, maxWidth: number): string[];
  truncate(font: PDFFont, text: string, size: number, maxWidth: number): string;
  /** The text with what no face can draw replaced by `?`. */
  renderable(font: PDFFont, text: string): string;
};

const SPACES = /[\u00a0\u2007\u202f\u2009]/g;

export function createTextWriter(options: {
  isRightToLeft: boolean;
  arabic?: ArabicFaces | undefined;
  latin: { regular: PDFFont; bold: PDFFont };
}): TextWriter {
  const { arabic } = options;
  const arabicFor = (font: PDFFont): PDFFont | undefined =>
    arabic ? (font === options.latin.bold ? arabic.bold : arabic.regular) : undefined;
  const levelOf = (text: string, direction: TextDirection): 0 | 1 => {
    if (direction === 'page') return options.isRightToLeft ? 1 : 0;
    for (const char of text) {
      if (hasRightToLeft(char)) return 1;
      if (/\p{L}/u.test(char)) return 0;
    }
    return 0;
  };
  const renderable = (font: PDFFont, text: string): string => {
    const latin = characterSetOf(font);
    const shaped = arabicFor(font);
    const shapedSet = shaped ? characterSetOf(shaped) : undefined;
    let out = '';
    for (const char of text.normalize('NFC').replace(SPACES, ' ')) {
      const code = char.codePointAt(0)!;
      const isDrawable =
        char === '\n' ||
        (isArabicScript(char) ? shapedSet?.has(code) === true : latin.has(code) || shapedSet?.has(code) === true);
      out += isDrawable ? char : '?';
    }
    return out;
  };
  /** The line's segments, left to right as seen. */
  const segmentsOf = (font: PDFFont, text: string, direction: TextDirection): Segment[] => {
    const shaped = arabicFor(font);
    const segments: Segment[] = [];
    for (const { char, level } of visualOrder(text, levelOf(text, direction))) {
      const isShaped = shaped !== undefined && isArabicScript(char);
      const last = segments.at(-1);
      // An Arabic run is seen right to left: its segment is kept in logical order for fontkit.
      if (last && last.isShaped === isShaped && (!isShaped || level % 2 === 1))
        last.text = isShaped ? char + last.text : last.text + char;
      else segments.push({ text: char, font: isShaped ? shaped! : font, isShaped });
    }
    return segments;
  };
  const isPlain = (text: string, direction: TextDirection) => !hasRightToLeft(text) && levelOf(text, direction) === 0;
  const width = (font: PDFFont, text: string, size: number, direction: TextDirection = 'page'): number => {
    const clean = text.replace(SPACES, ' ');
    if (isPlain(clean, direction)) return widthOf(font, clean, size);
    return segmentsOf(font, clean, direction).reduce(
      (sum, segment) =>
        sum +
        (segment.isShaped
          ? segment.font.widthOfTextAtSize(segment.text, size)
          : widthOf(segment.font, segment.text, size)),
      0,
    );
  };
  return {
    isRightToLeft: options.isRightToLeft,
    width,
    draw(page, text, { x, y, size, font, color, direction = 'page' }) {
      const clean = renderable(font, text);
      if (isPlain(clean, direction)) {
        page.drawText(clean, { x, y, size, font, color });
        return;
      }
      let left = x;
      for (const segment of segmentsOf(font, clean, direction)) {
        page.drawText(segment.text, { x: left, y, size, font: segment.font, color });
        left += segment.isShaped
          ? segment.font.widthOfTextAtSize(segment.text, size)
          : widthOf(segment.font, segment.text, size);
      }
    },
    wrap: (font, text, size, maxWidth) => wrapWords(text, maxWidth, (candidate) => width(font, candidate, size)),
    truncate: (font, text, size, maxWidth) => truncateWith(text, maxWidth, (candidate) => width(font, candidate, size)),
    renderable,
  };
}
