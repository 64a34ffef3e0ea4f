import { describe, expect, it } from 'vitest';
import { findTagsOnPage, type TextRun, type ViewTransform } from '../../server/pdf/find-text-tags';
import { fieldBoxOfTag } from '../../server/contracts/tag-fields';

// An A4 page as pdf.js shows it unrotated: y flips, origin at the top-left.
const UPRIGHT: ViewTransform = [1, 0, 0, -1, 0, 841.89];
const run = (str: string, x: number, y: number, width: number, hasEOL = false): TextRun => ({
  str,
  transform: [11, 0, 0, 11, x, y],
  width,
  hasEOL,
  ascent: 0.718,
  descent: -0.207,
});

describe('finding text tags in runs of text', () => {
  it('finds a tag inside a run, its box from where it starts to where the run ends', () => {
    const [tag] = findTagsOnPage(2, [run('Sign: {{SIGNATURE : 1}}', 100, 700, 130)], UPRIGHT);
    expect(tag).toMatchObject({ type: 'SIGNATURE', position: 1, page: 2, text: '{{SIGNATURE : 1}}' });
    expect(tag!.x).toBeGreaterThan(120);
    expect(tag!.x + tag!.width).toBeCloseTo(230, 3);
    expect(tag!.y).toBeCloseTo(841.89 - 700 - 0.718 * 11, 3);
    expect(tag!.height).toBeCloseTo(0.925 * 11, 3);
  });

  it('joins runs of one line (a tag split by a font change) but not runs of two lines', () => {
    const split = [run('{{da', 50, 500, 20), run('te:2', 70, 500, 20), run('}}', 90, 500, 8)];
    expect(findTagsOnPage(1, split, UPRIGHT)).toMatchObject([{ type: 'DATE', position: 2, x: 50, width: 48 }]);
    const twoLines = [run('{{date', 50, 500, 30), run(':2}}', 50, 480, 20)];
    expect(findTagsOnPage(1, twoLines, UPRIGHT)).toEqual([]);
    const ended = [run('{{date', 50, 500, 30, true), run(':2}}', 80, 500, 20)];
    expect(findTagsOnPage(1, ended, UPRIGHT)).toEqual([]);
  });

  it('ignores what only looks like a tag', () => {
    const runs = [run('{{stamp:1}} {signature:1} {{signature}} {{name:x}} {{text:1234}}', 50, 500, 300)];
    expect(findTagsOnPage(1, runs, UPRIGHT)).toEqual([]);
  });

  it('sizes fields over their tags and keeps them on the page', () => {
    const tag = {
      type: 'SIGNATURE' as const,
      position: 1,
      text: '{{signature:1}}',
      page: 1,
      x: 560,
      y: 5,
      width: 70,
      height: 10,
    };
    const box = fieldBoxOfTag(tag, [595.28, 841.89]);
    expect(box).toMatchObject({ pdfPage: 1, width: 80, height: 36, posY: 0 });
    expect(box.posX + box.width).toBeLessThanOrEqual(595.28);
    const checkbox = fieldBoxOfTag({ ...tag, type: 'CHECKBOX', x: 100, y: 300, height: 12 }, [595.28, 841.89]);
    expect(checkbox).toMatchObject({ posX: 100, width: 14, height: 14, posY: 299 });
  });
});
