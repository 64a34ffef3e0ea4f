import type { PDFFont } from 'pdf-lib';
import { widthOf } from './seal-fonts';

const ELLIPSIS = '…';

/** How wide a text is at the size the caller has in mind. */
type Measure = (text: string) => number;

/** Words wrapped into lines no wider than maxWidth; a word wider than a line (a user agent, a hash) is broken. */
export function wrapText(font: PDFFont, text: string, size: number, maxWidth: number): string[] {
  return wrapWords(text, maxWidth, (candidate) => widthOf(font, candidate, size));
}

/** wrapText by any measure (text-writer.ts measures shaped, bidirectional text). */
export function wrapWords(text: string, maxWidth: number, measure: Measure): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (measure(candidate) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      for (const piece of breakWord(word, maxWidth, measure)) {
        if (line) lines.push(line);
        line = piece;
      }
    }
    lines.push(line);
  }
  return lines;
}

export function breakWord(word: string, maxWidth: number, measure: Measure): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const char of word) {
    if (piece && measure(piece + char) > maxWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += char;
  }
  pieces.push(piece);
  return pieces;
}

/** The text cut to fit maxWidth at this size, ending in an ellipsis when cut. */
export function truncateToWidth(font: PDFFont, text: string, size: number, maxWidth: number): string {
  return truncateWith(text, maxWidth, (candidate) => widthOf(font, candidate, size));
}

/** truncateToWidth by any measure. */
export function truncateWith(text: string, maxWidth: number, measure: Measure): string {
  if (measure(text) <= maxWidth) return text;
  const chars = [...text];
  while (chars.length > 0 && measure(chars.join('') + ELLIPSIS) > maxWidth) chars.pop();
  return chars.length > 0 ? chars.join('').trimEnd() + ELLIPSIS : '';
}

/** The largest size (up to maxSize) at which one line of text fits the width, and the text, cut at minSize if need be. */
export function fitLine(
  font: PDFFont,
  text: string,
  maxWidth: number,
  maxSize: number,
  minSize: number,
): { text: string; size: number } {
  const widthAtOne = widthOf(font, text, 1);
  const size = Math.max(minSize, Math.min(maxSize, widthAtOne > 0 ? maxWidth / widthAtOne : maxSize));
  return { text: truncateToWidth(font, text, size, maxWidth), size };
}

/** The largest size at which the wrapped text fits the box; at minSize the lines that do not fit are cut. */
export function fitParagraph(
  font: PDFFont,
  text: string,
  width: number,
  height: number,
  maxSize: number,
  minSize: number,
  leading = 1.2,
): { lines: string[]; size: number } {
  for (let size = maxSize; size >= minSize; size -= 0.5) {
    const lines = wrapText(font, text, size, width);
    if (lines.length * size * leading <= height + size * (leading - 1)) return { lines, size };
  }
  const lines = wrapText(font, text, minSize, width);
  const fitting = Math.max(1, Math.floor((height + minSize * (leading - 1)) / (minSize * leading)));
  if (lines.length <= fitting) return { lines, size: minSize };
  const kept = lines.slice(0, fitting);
  kept[fitting - 1] = truncateToWidth(font, `${kept[fitting - 1]}${ELLIPSIS}`, minSize, width);
  return { lines: kept, size: minSize };
}
