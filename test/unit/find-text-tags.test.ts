import { describe, expect, it } from 'vitest';
import { findTagsOnPage } from '../../server/pdf/find-text-tags';
import { parseTag } from '../../server/pdf/parse-tag';
import { placeGlyphs, type FontInfo } from '../../server/pdf/read-glyphs';
import { checkTags, fieldBoxOfTag, fieldDetailsOfTag, sameTagBox } from '../../server/contracts/tag-fields';
import type { TextTag } from '../../server/pdf/find-text-tags';
import { AppError } from '../../server/core/errors';

// An A4 page as pdf.js shows it unrotated: y flips, origin at the top-left.
const UPRIGHT: [number, number, number, number, number, number] = [1, 0, 0, -1, 0, 841.89];
const OPS = {
  save: 1,
  restore: 2,
  transform: 3,
  beginText: 4,
  setFont: 5,
  setTextMatrix: 6,
  moveText: 7,
  showText: 8,
  setCharSpacing: 9,
  setWordSpacing: 10,
  setHScale: 11,
  setTextRise: 12,
};
const FONT: FontInfo = { fontMatrix: [0.001, 0, 0, 0.001, 0, 0], ascent: 0.9, descent: -0.2 };
/** Glyphs 500 units wide, a space (code 32) 250. */
const glyphs = (text: string) =>
  [...text].map((char) => ({ unicode: char, width: char === ' ' ? 250 : 500, isSpace: char === ' ' }));

function page(...operators: Array<[number, unknown[]]>) {
  const placed = placeGlyphs(
    { fnArray: operators.map(([fn]) => fn), argsArray: operators.map(([, args]) => args) },
    OPS,
    () => FONT,
    UPRIGHT,
  );
  return findTagsOnPage(3, placed);
}

describe('placing text tags from their glyphs', () => {
  it('places a tag from the advances before it, TJ adjustments, spacing and scaling included', () => {
    const { tags, problems } = page(
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 100, 700]]],
      [OPS.setCharSpacing, [1]],
      [OPS.setWordSpacing, [2]],
      // "ab " then a TJ kern of -100 (1 point at 10 pt), then the tag.
      [OPS.showText, [[...glyphs('ab '), -100, ...glyphs('{{name:2}}')]]],
    );
    expect(problems).toEqual([]);
    // a: 5 + 1, b: 5 + 1, space: 2.5 + 1 + 2, kern: +1 = 18.5
    expect(tags).toMatchObject([{ type: 'NAME', position: 2, page: 3, line: 1, text: '{{name:2}}' }]);
    expect(tags[0]!.x).toBeCloseTo(118.5, 6);
    // Ten glyphs of 5 points and nine character spacings between them.
    expect(tags[0]!.width).toBeCloseTo(10 * 5 + 9, 6);
    expect(tags[0]!.y).toBeCloseTo(841.89 - 700 - 9, 6);
    expect(tags[0]!.height).toBeCloseTo(11, 6);
  });

  it('measures the blank space above a tag, over the width its field takes, and after it on its line', () => {
    const { tags } = page(
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 100, 720]]],
      [OPS.showText, [glyphs('Caption')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 300, 760]]],
      [OPS.showText, [glyphs('Far to the right')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 100, 700]]],
      [OPS.showText, [glyphs('{{signature:1}}')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 200, 700]]],
      [OPS.showText, [glyphs('after')]],
    );
    // The caption's descent is 2 points below its baseline (720), the tag's ascent 9 above its own (700).
    expect(tags[0]!.roomAbove).toBeCloseTo(720 - 2 - (700 + 9), 6);
    expect(tags[0]!.roomRight).toBeCloseTo(200 - (100 + 15 * 5), 6);
  });

  it('follows cm, Tz and Ts, and joins a tag split over two text objects of one line', () => {
    const { tags } = page(
      [OPS.save, []],
      [OPS.transform, [2, 0, 0, 2, 10, 10]],
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setHScale, [50]],
      [OPS.moveText, [50, 300]],
      [OPS.showText, [glyphs('xx{{da')]],
      [OPS.showText, [glyphs('te:1}}')]],
      [OPS.restore, []],
    );
    // x: 10 + 2 × (50 + 2 × 2.5) = 120; each glyph 2.5 × 2 = 5 points wide.
    expect(tags).toMatchObject([{ type: 'DATE', position: 1 }]);
    expect(tags[0]!.x).toBeCloseTo(120, 6);
    expect(tags[0]!.width).toBeCloseTo(10 * 5, 6);
    const risen = page(
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setTextRise, [3]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 0, 500]]],
      [OPS.showText, [glyphs('{{text:1}}')]],
    ).tags[0]!;
    expect(risen.y).toBeCloseTo(841.89 - 503 - 9, 6);
  });

  it('does not join lines (a tag broken over two is named), and leaves what only looks like a tag', () => {
    const { tags, problems } = page(
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 500]]],
      [OPS.showText, [glyphs('{{date')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 480]]],
      [OPS.showText, [glyphs(':2}} {{client_name}} {signature:1}')]],
    );
    expect(tags).toEqual([]);
    expect(problems).toMatchObject([
      { text: '{{date…', line: 1, problem: expect.stringContaining('broken over two lines') },
    ]);
  });

  it('names a tag written wrong with its page and line', () => {
    const { tags, problems } = page(
      [OPS.beginText, []],
      [OPS.setFont, ['f1', 10]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 700]]],
      [OPS.showText, [glyphs('Sign: {{signature:1}}')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 680]]],
      [OPS.showText, [glyphs('{{signatur:1}} and {{text:1;w=abc}}')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 660]]],
      [OPS.showText, [glyphs('Company number: {{text:2;label=Company')]],
      [OPS.setTextMatrix, [[1, 0, 0, 1, 50, 640]]],
      [OPS.showText, [glyphs('number}} as registered')]],
    );
    expect(tags).toHaveLength(1);
    expect(problems).toMatchObject([
      { text: '{{signatur:1}}', page: 3, line: 2, problem: expect.stringContaining('did you mean signature') },
      { text: '{{text:1;w=abc}}', page: 3, line: 2, problem: expect.stringContaining('w=abc is not a size') },
      { text: '{{text:2;label=Company…', page: 3, line: 3, problem: expect.stringContaining('broken over two lines') },
    ]);
  });
});

describe('the tag grammar', () => {
  it('reads the type from the API types, the party and the options', () => {
    expect(parseTag(' Signature : 1 ; h=40')).toEqual({
      ok: true,
      type: 'SIGNATURE',
      position: 1,
      options: { height: 40 },
    });
    expect(parseTag('text:2;label=Company number;w=150;required=false;hint=As registered')).toEqual({
      ok: true,
      type: 'TEXT',
      position: 2,
      options: { label: 'Company number', width: 150, required: false, hint: 'As registered' },
    });
    for (const [inner, says] of [
      ['signature', 'by number after a colon'],
      ['name:0', 'by number after a colon'],
      ['name:1;colour=red', '"colour" is not a tag option'],
      ['name:1;w=2', 'from 4 to 1000'],
      ['name:1;w=10;w=20', 'given twice'],
      ['name:1;required=maybe', 'neither true nor false'],
      [`name:1;label=${'x'.repeat(101)}`, '1 to 100 characters'],
      ['text:1;options=A|B', 'only for a field that offers choices'],
      ['dropdown:1', 'names its choices'],
      ['radio:1;options=Yes|No|Yes', 'all different'],
    ] as const)
      expect(parseTag(inner)).toEqual({ ok: false, problem: expect.stringContaining(says) });
  });
});

describe('what a tag gives its field besides its box', () => {
  it('passes label, hint, required and the choices on', () => {
    const parsed = parseTag('radio:2;label=Billing;hint=Pick one;required=false;options=Monthly|Yearly');
    if (!parsed.ok) throw new Error(parsed.problem);
    expect(fieldDetailsOfTag({ ...parsed, text: '', page: 1, line: 1 } as unknown as TextTag)).toEqual({
      inputRequired: false,
      label: 'Billing',
      hint: 'Pick one',
      options: '["Monthly","Yearly"]',
    });
  });
});

describe('a field over its tag', () => {
  const tag = {
    type: 'SIGNATURE' as const,
    position: 1,
    text: '{{signature:1}}',
    page: 1,
    line: 1,
    x: 100,
    y: 300,
    width: 76.3,
    height: 13.3,
    roomAbove: 6,
    roomRight: 3,
    options: {},
  };
  it('is the tag box, a signature grown into the blank above; h grows it upwards, w to the right; kept on the page', () => {
    // Six points blank above (a caption there): it grows five, a point short of the caption.
    expect(fieldBoxOfTag(tag, [595.28, 841.89])).toEqual({
      pdfPage: 1,
      posX: 100,
      posY: 295,
      width: 76.3,
      height: 18.3,
    });
    // Room enough: 36 points at most; initials 24; other types stay the tag's height.
    expect(fieldBoxOfTag({ ...tag, roomAbove: 100 }, [595.28, 841.89])).toMatchObject({ posY: 277.3, height: 36 });
    expect(fieldBoxOfTag({ ...tag, type: 'INITIALS', roomAbove: 100 }, [595.28, 841.89])).toMatchObject({ height: 24 });
    expect(fieldBoxOfTag({ ...tag, type: 'NAME', roomAbove: 100 }, [595.28, 841.89])).toMatchObject({
      posY: 300,
      height: 13.3,
    });
    expect(fieldBoxOfTag({ ...tag, roomAbove: 0 }, [595.28, 841.89])).toMatchObject({ posY: 300, height: 13.3 });
    // A name grows to the right into the blank after its tag, to 120 points, two points short of the next word.
    expect(fieldBoxOfTag({ ...tag, type: 'NAME' }, [595.28, 841.89])).toMatchObject({ width: 77.3 });
    expect(fieldBoxOfTag({ ...tag, type: 'NAME', roomRight: Infinity }, [595.28, 841.89])).toMatchObject({
      width: 120,
    });
    expect(fieldBoxOfTag({ ...tag, type: 'DATE', roomRight: 10 }, [595.28, 841.89])).toMatchObject({ width: 80 });
    expect(fieldBoxOfTag({ ...tag, roomRight: Infinity }, [595.28, 841.89])).toMatchObject({ width: 76.3 });
    expect(fieldBoxOfTag({ ...tag, options: { height: 40, width: 150 } }, [595.28, 841.89])).toEqual({
      pdfPage: 1,
      posX: 100,
      posY: 273.3,
      width: 150,
      height: 40,
    });
    expect(fieldBoxOfTag({ ...tag, type: 'CHECKBOX' }, [595.28, 841.89])).toMatchObject({
      posX: 100,
      posY: 300,
      width: 13.3,
      height: 13.3,
    });
    const edge = fieldBoxOfTag({ ...tag, x: 560, y: 5, options: { height: 40 } }, [595.28, 841.89]);
    expect(edge).toMatchObject({ posY: 0, height: 40 });
    expect(edge.posX + edge.width).toBeLessThanOrEqual(595.28);
  });
});

describe('tag problems', () => {
  it('names at most 50 tags, and says how many more', () => {
    const problems = Array.from({ length: 60 }, (_, index) => ({
      text: '{{signatur:1}}',
      page: 1,
      line: index + 1,
      problem: 'not a type',
    }));
    let caught: unknown;
    try {
      checkTags([], problems, 2, 'party');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    const { message, validationErrors: lines } = caught as AppError;
    expect(message).toMatch(/^60 tags are not right, so no fields were made: .*line 5\) and 55 more\.$/);
    expect(lines).toHaveLength(51);
    expect(lines.at(-1)).toBe('… and 10 more');
  });
});

describe('a tag already made', () => {
  it('is the same tag when its box overlaps on the same line (as an earlier reading measured it)', () => {
    const now = { page: 1, x: 216.8, y: 106.4, width: 58.3, height: 13.3 };
    expect(sameTagBox(now, { page: 1, x: 224.2, y: 106.9, width: 50.9, height: 12.6 })).toBe(true);
    expect(sameTagBox(now, { ...now, x: 437.9 })).toBe(false);
    expect(sameTagBox(now, { ...now, y: 120.2 })).toBe(false);
    expect(sameTagBox(now, { ...now, page: 2 })).toBe(false);
  });
});
