import type { GrayImage, WordBox } from './pdf-tools';

/**
 * A text tag as poppler reads it (`pdftotext -bbox`, a reader independent of ours): the words
 * from one starting `{{` to the one holding `}}`, on one line. `isWhole` when the last word ends
 * with the tag (no punctuation glued to it), so its right edge is the tag's.
 */
export type PopplerTag = {
  text: string;
  page: number;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  isWhole: boolean;
  /** The font size and baseline, from poppler's box: LibreOffice's font descriptors give no ascent or descent, so poppler uses 0.95 and 0.35 em. */
  size: number;
  baseline: number;
};

export function popplerTags(words: readonly WordBox[]): PopplerTag[] {
  const tags: PopplerTag[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const first = words[index]!;
    if (!first.word.startsWith('{{')) continue;
    let last = index;
    while (!words[last]!.word.includes('}}') && last + 1 < words.length && words[last + 1]!.y === first.y) last += 1;
    const joined = words
      .slice(index, last + 1)
      .map((word) => word.word)
      .join(' ');
    const end = words[last]!;
    const size = first.height / 1.3;
    tags.push({
      text: joined.slice(0, joined.indexOf('}}') + 2),
      page: first.page,
      x0: first.x,
      x1: end.x + end.width,
      top: first.y,
      bottom: first.y + first.height,
      isWhole: end.word.endsWith('}}'),
      size,
      baseline: first.y + first.height - 0.35 * size,
    });
    index = last;
  }
  return tags;
}

/** The band of a word where its glyphs' ink is (capitals to descenders), from poppler's box. */
export function inkBand(word: WordBox): { x: number; y: number; width: number; height: number } {
  const size = word.height / 1.3;
  const baseline = word.y + word.height - 0.35 * size;
  return { x: word.x, y: baseline - 0.75 * size, width: word.width, height: 0.97 * size };
}

/** Pixels of a box (points) in an image drawn at `scale` pixels per point. */
export function pixelsIn(
  image: GrayImage,
  box: { x: number; y: number; width: number; height: number },
  scale: number,
) {
  const values: number[] = [];
  for (let y = Math.ceil(box.y * scale); y < Math.floor((box.y + box.height) * scale); y += 1)
    for (let x = Math.ceil(box.x * scale); x < Math.floor((box.x + box.width) * scale); x += 1)
      values.push(image.pixels[y * image.width + x]!);
  return values;
}
