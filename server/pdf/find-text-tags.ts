import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';
import type { AnnotationType } from '../../shared/api/enums';

/** A text tag as found on a page: `{{signature:1}}` names the type and the party's position. */
export type TextTag = {
  type: AnnotationType;
  /** The party's position, 1 = the first party added (or the template's role number). */
  position: number;
  /** The tag as written in the PDF, e.g. `{{signature:1}}`. */
  text: string;
  page: number;
  /** The tag's own box: PDF points from the top-left of the page as displayed, y down. */
  x: number;
  y: number;
  width: number;
  height: number;
};

/** One run of text as pdf.js reports it (`getTextContent`), in the page's user space. */
export type TextRun = {
  str: string;
  /** [a, b, c, d, e, f]: the run's text matrix times its font size; (e, f) is where it starts. */
  transform: number[];
  /** Its advance along the text direction, in user space. */
  width: number;
  hasEOL: boolean;
  /** The font's ascent and descent in ems (descent negative), when pdf.js knows them. */
  ascent?: number;
  descent?: number;
};

/** The page's view: user space to points from the top-left of the displayed page (pdf.js's viewport transform at scale 1). */
export type ViewTransform = [number, number, number, number, number, number];

// Tolerant of what word processors do to a typed tag: spaces inside the braces, capitals; never across lines.
const TAG_PATTERN = /\{\{[^\S\n]*(signature|initials|date|name|text|checkbox)[^\S\n]*:[^\S\n]*(\d{1,3})[^\S\n]*\}\}/gi;

let helvetica: StandardFontEmbedder | undefined;

/**
 * How far into a run each character ends, as a share of the run's width. pdf.js gives a run's
 * width but not its glyphs', so Helvetica's proportions stand in for the real font's and are
 * scaled to the run's true width: close for every sans face, and the tag's end stays exact.
 */
function characterEnds(text: string): number[] {
  // pdf-lib's StandardFonts and the embedder's own FontNames are the same strings under two enums.
  helvetica ??= StandardFontEmbedder.for(
    StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0],
  );
  const font = helvetica;
  const widths = [...text].map((char) => {
    try {
      return font.widthOfTextAtSize(char, 1) || 0.5;
    } catch {
      return 0.5;
    }
  });
  const total = widths.reduce((sum, width) => sum + width, 0) || 1;
  let running = 0;
  return widths.map((width) => (running += width) / total);
}

type Located = { run: number; index: number };

/** The page's runs as one string (a line break where a run ends a line or the next starts elsewhere), each character traced to its run. */
function joinRuns(runs: readonly TextRun[]): { text: string; origins: Array<Located | undefined> } {
  let text = '';
  const origins: Array<Located | undefined> = [];
  runs.forEach((run, runIndex) => {
    const previous = runs[runIndex - 1];
    if (previous && (previous.hasEOL || !isSameLine(previous, run))) {
      text += '\n';
      origins.push(undefined);
    }
    [...run.str].forEach((char, index) => {
      text += char;
      // A character outside the BMP is two code units: both map to the same glyph.
      for (let unit = 0; unit < char.length; unit += 1) origins.push({ run: runIndex, index });
    });
  });
  return { text, origins };
}

/** Same baseline (within half the font size) and the same direction: one line, so a tag may run across both. */
function isSameLine(a: TextRun, b: TextRun): boolean {
  const [aa = 1, ab = 0, , , ae = 0, af = 0] = a.transform;
  const [ba = 1, bb = 0, , , be = 0, bf = 0] = b.transform;
  const length = Math.hypot(aa, ab) || 1;
  const size = Math.hypot(a.transform[2] ?? 0, a.transform[3] ?? 0) || length;
  const isSameDirection = Math.abs(aa * bb - ab * ba) / (length * (Math.hypot(ba, bb) || 1)) < 0.01;
  // Distance of b's origin from a's baseline, across the text direction.
  const across = Math.abs((be - ae) * -ab + (bf - af) * aa) / length;
  return isSameDirection && across < size * 0.5;
}

/** The box (displayed page, y down) of characters [from, to) of one run. */
function runBox(
  run: TextRun,
  from: number,
  to: number,
  view: ViewTransform,
): { x0: number; y0: number; x1: number; y1: number } {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = run.transform;
  const ends = characterEnds(run.str);
  const start = from === 0 ? 0 : (ends[from - 1] ?? 0);
  const end = ends[to - 1] ?? 1;
  const length = Math.hypot(a, b) || 1;
  const size = Math.hypot(c, d) || length;
  const [dx, dy] = [a / length, b / length];
  const [ux, uy] = [c / size, d / size];
  const ascent = run.ascent && run.ascent > 0 ? run.ascent : 0.8;
  const descent = run.descent && run.descent < 0 ? run.descent : -0.2;
  const corners: Array<[number, number]> = [];
  for (const along of [start * run.width, end * run.width]) {
    for (const up of [descent * size, ascent * size])
      corners.push([e + dx * along + ux * up, f + dy * along + uy * up]);
  }
  const [t0, t1, t2, t3, t4, t5] = view;
  const xs = corners.map(([x, y]) => t0 * x + t2 * y + t4);
  const ys = corners.map(([x, y]) => t1 * x + t3 * y + t5);
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/**
 * Every text tag on one page, in reading order. A tag may be split over several runs (a word
 * processor that changed font or kerning mid-word writes it so); its box is the union of its
 * pieces.
 */
export function findTagsOnPage(page: number, runs: readonly TextRun[], view: ViewTransform): TextTag[] {
  const { text, origins } = joinRuns(runs);
  const tags: TextTag[] = [];
  for (const match of text.matchAll(TAG_PATTERN)) {
    const start = match.index;
    const end = start + match[0].length;
    // Characters of the match, grouped by run: [run, first index, last index + 1].
    const pieces = new Map<number, [number, number]>();
    for (let at = start; at < end; at += 1) {
      const origin = origins[at];
      if (!origin) continue;
      const piece = pieces.get(origin.run);
      pieces.set(
        origin.run,
        piece
          ? [Math.min(piece[0], origin.index), Math.max(piece[1], origin.index + 1)]
          : [origin.index, origin.index + 1],
      );
    }
    const boxes = [...pieces].map(([run, [from, to]]) => runBox(runs[run]!, from, to, view));
    if (boxes.length === 0) continue;
    const x0 = Math.min(...boxes.map((box) => box.x0));
    const y0 = Math.min(...boxes.map((box) => box.y0));
    const x1 = Math.max(...boxes.map((box) => box.x1));
    const y1 = Math.max(...boxes.map((box) => box.y1));
    tags.push({
      type: match[1]!.toUpperCase() as AnnotationType,
      position: Number(match[2]),
      text: match[0],
      page,
      x: round(x0),
      y: round(y0),
      width: round(x1 - x0),
      height: round(y1 - y0),
    });
  }
  return tags;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
