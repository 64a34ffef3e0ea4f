import type { AnnotationType } from '../../shared/api/enums';
import { isMeantAsTag, parseTag, type TagOptions } from './parse-tag';
import type { PlacedGlyph } from './read-glyphs';

/** A text tag as found on a page: `{{signature:1;h=40}}` names the type, the party's position and options. */
export type TextTag = {
  type: AnnotationType;
  /** The party's position, 1 = the first party added (or the template's role number). */
  position: number;
  /** The tag as written in the PDF, e.g. `{{signature:1}}`. */
  text: string;
  page: number;
  /** The line of the page it is on, counted from the top (lines side by side, as in a table row, are one line). */
  line: number;
  /** The tag's ink box: PDF points from the top-left of the page as displayed, y down. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Blank space above the tag (to the nearest glyph above that its field's width reaches, or the page's top), in points. */
  roomAbove: number;
  /** Blank space after the tag on its line (to the nearest glyph whose box meets the tag's band, or the page's edge), in points. */
  roomRight: number;
  options: TagOptions;
};

/** Something written as a tag that is not a good one: named with its place, and nothing is made. */
export type TagProblem = { text: string; page: number; line: number; problem: string };

type Line = { glyphs: Array<PlacedGlyph | undefined>; text: string; across: number };

const CANDIDATE = /\{\{([^{}\n]{1,300})\}\}/g;
/** A tag begun at the end of a line and not closed on it: the word processor broke it over two lines. */
const UNCLOSED = /\{\{([^{}\n]{1,300})$/;

/** Where a glyph's baseline lies across the text direction (y for upright text). */
const acrossOf = (glyph: PlacedGlyph) => glyph.originY * glyph.dirX - glyph.originX * glyph.dirY;

/**
 * The page's glyphs as lines, in the order the page draws them: a glyph starts a new line when
 * its baseline or direction changes or it goes back along the line; a gap wider than a quarter
 * em reads as a space (a word processor may place words without a space glyph).
 */
function joinLines(glyphs: readonly PlacedGlyph[]): Line[] {
  const lines: Line[] = [];
  let line: Line | undefined;
  let previous: PlacedGlyph | undefined;
  for (const glyph of glyphs) {
    if (glyph.text === '') continue;
    let isSameLine = false;
    if (previous && line) {
      const isSameDirection = previous.dirX * glyph.dirX + previous.dirY * glyph.dirY > 0.999;
      const size = Math.max(previous.size, glyph.size, 1);
      const gap =
        (glyph.originX - previous.originX) * previous.dirX +
        (glyph.originY - previous.originY) * previous.dirY -
        previous.advance;
      isSameLine = isSameDirection && Math.abs(acrossOf(glyph) - acrossOf(previous)) < size * 0.3 && gap > -size * 0.5;
      if (isSameLine && gap > size * 0.25 && previous.text !== ' ' && glyph.text !== ' ') {
        line.text += ' ';
        line.glyphs.push(undefined);
      }
    }
    if (!isSameLine || !line) {
      line = { glyphs: [], text: '', across: acrossOf(glyph) };
      lines.push(line);
    }
    // Every code unit of the glyph's text (a ligature, a character outside the BMP) maps to it.
    line.text += glyph.text;
    for (let unit = 0; unit < glyph.text.length; unit += 1) line.glyphs.push(glyph);
    previous = glyph;
  }
  return lines;
}

/** Line numbers by baseline from the top: baselines within a point of each other are one line. */
function numberLines(lines: readonly Line[]): (line: Line) => number {
  const baselines = [...new Set(lines.map((line) => Math.round(line.across * 100) / 100))].sort((a, b) => a - b);
  const clusters: number[] = [];
  for (const baseline of baselines) {
    if (clusters.length === 0 || baseline - clusters[clusters.length - 1]! > 1) clusters.push(baseline);
    else clusters[clusters.length - 1] = baseline;
  }
  return (line) => 1 + clusters.findIndex((end) => line.across <= end + 0.01);
}

/**
 * Every text tag on one page, in the order the page draws them, and every `{{…}}` meant as a
 * tag that is not a good one. A tag may be split over several text runs (a font change
 * mid-word); its box is the union of its glyphs' boxes.
 */
export function findTagsOnPage(
  page: number,
  glyphs: readonly PlacedGlyph[],
): { tags: TextTag[]; problems: TagProblem[] } {
  const lines = joinLines(glyphs);
  const lineOf = numberLines(lines);
  const tags: TextTag[] = [];
  const problems: TagProblem[] = [];
  for (const line of lines) {
    const unclosed = UNCLOSED.exec(line.text.trimEnd());
    if (unclosed && isMeantAsTag(unclosed[1]!))
      problems.push({
        text: `${unclosed[0].trim()}…`,
        page,
        line: lineOf(line),
        problem:
          'the tag is broken over two lines; keep a tag on one line (shorten it, or join its words with non-breaking spaces)',
      });
    for (const match of line.text.matchAll(CANDIDATE)) {
      const inner = match[1]!;
      if (!isMeantAsTag(inner)) continue;
      const text = match[0].replace(/\s+/g, ' ');
      const parsed = parseTag(inner);
      if (!parsed.ok) {
        problems.push({ text, page, line: lineOf(line), problem: parsed.problem });
        continue;
      }
      const inTag = line.glyphs
        .slice(match.index, match.index + match[0].length)
        .filter((glyph): glyph is PlacedGlyph => glyph !== undefined);
      const x0 = Math.min(...inTag.map((glyph) => glyph.x0));
      const y0 = Math.min(...inTag.map((glyph) => glyph.y0));
      const x1 = Math.max(...inTag.map((glyph) => glyph.x1));
      const y1 = Math.max(...inTag.map((glyph) => glyph.y1));
      tags.push({
        type: parsed.type,
        position: parsed.position,
        text,
        page,
        line: lineOf(line),
        x: round(x0),
        y: round(y0),
        width: round(x1 - x0),
        height: round(y1 - y0),
        roomAbove: round(roomAbove(glyphs, inTag, x0, Math.max(x1, x0 + (parsed.options.width ?? 0)), y0)),
        roomRight: round(roomRight(glyphs, inTag, x1, y0, y1)),
        options: parsed.options,
      });
    }
  }
  return { tags, problems };
}

/** How far up from `top` the page is blank over [left, right]: to the lowest glyph box above (a space is no ink). */
function roomAbove(
  glyphs: readonly PlacedGlyph[],
  own: readonly PlacedGlyph[],
  left: number,
  right: number,
  top: number,
): number {
  let limit = 0;
  for (const glyph of glyphs) {
    if (glyph.text.trim() === '' || own.includes(glyph)) continue;
    if (glyph.x1 <= left || glyph.x0 >= right || glyph.y1 > top + 0.01) continue;
    limit = Math.max(limit, glyph.y1);
  }
  return Math.max(0, top - limit);
}

/** How far right from `right` the band [top, bottom] is blank: to the nearest glyph box in it (Infinity: to the page's edge). */
function roomRight(
  glyphs: readonly PlacedGlyph[],
  own: readonly PlacedGlyph[],
  right: number,
  top: number,
  bottom: number,
): number {
  let limit = Infinity;
  for (const glyph of glyphs) {
    if (glyph.text.trim() === '' || own.includes(glyph)) continue;
    // By its middle: kerning may draw the next glyph a little into the tag's last one.
    if (glyph.y1 <= top || glyph.y0 >= bottom || (glyph.x0 + glyph.x1) / 2 < right) continue;
    limit = Math.min(limit, glyph.x0);
  }
  return Math.max(0, limit - right);
}

const round = (value: number) => Math.round(value * 1000) / 1000;
