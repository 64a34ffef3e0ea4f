/**
 * Every glyph a page shows, placed from the PDF's own fonts: pdf.js's operator list gives each
 * glyph with its advance from the font (`/Widths`, `/W`, or the embedded font), and this follows
 * the text state the way a viewer draws it (PDF 32000-1 §9.4.4): text and line matrices, `cm`,
 * form XObjects, font size, `TJ` adjustments, character and word spacing (Tc, Tw: only on a
 * one-byte code 32), horizontal scaling (Tz) and rise (Ts).
 */

/** One glyph, in the page as displayed (points from the top-left, y down). */
export type PlacedGlyph = {
  /** What the glyph reads as (its ToUnicode text; a ligature gives several characters). */
  text: string;
  /** Its ink box: from its origin to its advance, and from the font's descent to its ascent. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Its origin on the baseline, and the text direction (a unit vector). */
  originX: number;
  originY: number;
  dirX: number;
  dirY: number;
  /** How far its advance reaches along the text direction, in displayed points. */
  advance: number;
  /** The font size as drawn (the text's em in displayed points). */
  size: number;
};

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m then n (PDF's row-vector convention: a point goes through m first). */
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];
const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/** What pdf.js's operator list carries for a glyph of `showText`. */
type OpGlyph = { unicode?: string; width?: number; isSpace?: boolean };
/** The font pdf.js loaded, as far as placing glyphs needs it. */
export type FontInfo = { fontMatrix?: number[]; ascent?: number; descent?: number; vertical?: boolean };

type TextState = {
  ctm: Matrix;
  font: FontInfo | undefined;
  size: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
};

const asMatrix = (args: unknown[]): Matrix => {
  const values = (Array.isArray(args[0]) || ArrayBuffer.isView(args[0]) ? args[0] : args) as ArrayLike<number>;
  if (!values || values.length < 6) return [...IDENTITY];
  return [0, 1, 2, 3, 4, 5].map((index) => Number(values[index]) || 0) as Matrix;
};

/**
 * The glyphs of one page's operator list. `ops` names pdf.js's operator codes (its `OPS`);
 * `fontOf` gives the font pdf.js loaded under a `setFont` name; `view` is the page's viewport
 * transform at scale 1 (user space to the displayed page). Vertical writing is left out.
 */
export function placeGlyphs(
  operators: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  ops: Record<string, number>,
  fontOf: (name: string) => FontInfo | undefined,
  view: Matrix,
): PlacedGlyph[] {
  const glyphs: PlacedGlyph[] = [];
  let state: TextState = {
    ctm: [...IDENTITY],
    font: undefined,
    size: 0,
    charSpacing: 0,
    wordSpacing: 0,
    hScale: 1,
    leading: 0,
    rise: 0,
  };
  const stack: TextState[] = [];
  let textMatrix: Matrix = [...IDENTITY];
  let lineMatrix: Matrix = [...IDENTITY];
  const moveText = (x: number, y: number) => {
    lineMatrix = multiply([1, 0, 0, 1, x, y], lineMatrix);
    textMatrix = [...lineMatrix];
  };

  const show = (items: ReadonlyArray<OpGlyph | number>) => {
    const font = state.font;
    if (!font || font.vertical || state.size === 0) return;
    const size = state.size;
    const unitsToText = (font.fontMatrix?.[0] ?? 0.001) * size;
    const ascent = font.ascent && font.ascent > 0 && font.ascent < 2 ? font.ascent : 0.8;
    const descent = font.descent && font.descent < 0 && font.descent > -1 ? font.descent : -0.2;
    const toPage = multiply(multiply(textMatrix, state.ctm), view);
    let x = 0;
    for (const item of items) {
      if (typeof item === 'number') {
        x -= (item / 1000) * size * state.hScale;
        continue;
      }
      const advance = (item.width ?? 0) * unitsToText * state.hScale;
      const corners = [
        apply(toPage, x, state.rise + descent * size),
        apply(toPage, x, state.rise + ascent * size),
        apply(toPage, x + advance, state.rise + descent * size),
        apply(toPage, x + advance, state.rise + ascent * size),
      ];
      const [originX, originY] = apply(toPage, x, state.rise);
      const [aheadX, aheadY] = apply(toPage, x + 1, state.rise);
      const [upX, upY] = apply(toPage, x, state.rise + size);
      const length = Math.hypot(aheadX - originX, aheadY - originY) || 1;
      const xs = corners.map((corner) => corner[0]);
      const ys = corners.map((corner) => corner[1]);
      glyphs.push({
        text: item.unicode ?? '',
        x0: Math.min(...xs),
        y0: Math.min(...ys),
        x1: Math.max(...xs),
        y1: Math.max(...ys),
        originX,
        originY,
        dirX: (aheadX - originX) / length,
        dirY: (aheadY - originY) / length,
        advance: advance * length,
        size: Math.hypot(upX - originX, upY - originY),
      });
      x += advance + (state.charSpacing + (item.isSpace ? state.wordSpacing : 0)) * state.hScale;
    }
    textMatrix = multiply([1, 0, 0, 1, x, 0], textMatrix);
  };

  for (let index = 0; index < operators.fnArray.length; index += 1) {
    const fn = operators.fnArray[index];
    const args = (operators.argsArray[index] ?? []) as unknown[];
    switch (fn) {
      case ops.save:
        stack.push({ ...state });
        break;
      case ops.restore:
        state = stack.pop() ?? state;
        break;
      case ops.transform:
        state.ctm = multiply(asMatrix(args), state.ctm);
        break;
      case ops.paintFormXObjectBegin:
        stack.push({ ...state });
        if (args[0]) state.ctm = multiply(asMatrix([args[0]]), state.ctm);
        break;
      case ops.paintFormXObjectEnd:
        state = stack.pop() ?? state;
        break;
      case ops.beginText:
        textMatrix = [...IDENTITY];
        lineMatrix = [...IDENTITY];
        break;
      case ops.setFont:
        state.font = fontOf(String(args[0]));
        state.size = Number(args[1]) || 0;
        break;
      case ops.setCharSpacing:
        state.charSpacing = Number(args[0]) || 0;
        break;
      case ops.setWordSpacing:
        state.wordSpacing = Number(args[0]) || 0;
        break;
      case ops.setHScale:
        state.hScale = (Number(args[0]) || 0) / 100;
        break;
      case ops.setLeading:
        state.leading = Number(args[0]) || 0;
        break;
      case ops.setTextRise:
        state.rise = Number(args[0]) || 0;
        break;
      case ops.setTextMatrix:
        textMatrix = asMatrix(args);
        lineMatrix = [...textMatrix];
        break;
      case ops.moveText:
        moveText(Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case ops.setLeadingMoveText:
        state.leading = -(Number(args[1]) || 0);
        moveText(Number(args[0]) || 0, Number(args[1]) || 0);
        break;
      case ops.nextLine:
        moveText(0, -state.leading);
        break;
      case ops.nextLineShowText:
        moveText(0, -state.leading);
        show((args[0] ?? []) as Array<OpGlyph | number>);
        break;
      case ops.nextLineSetSpacingShowText:
        state.wordSpacing = Number(args[0]) || 0;
        state.charSpacing = Number(args[1]) || 0;
        moveText(0, -state.leading);
        show((args[2] ?? []) as Array<OpGlyph | number>);
        break;
      case ops.showText:
      case ops.showSpacedText:
        show((args[0] ?? []) as Array<OpGlyph | number>);
        break;
      default:
        break;
    }
  }
  return glyphs;
}
