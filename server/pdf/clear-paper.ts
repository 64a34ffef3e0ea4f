/**
 * Takes the paper out of a picture of a signature, whatever the paper's own level: a scan on
 * white, a drawn mark on transparency, or a phone photo of ink on greyish, unevenly lit paper.
 *
 * 1. The paper's level is estimated locally (lighting falls off across a photo): the picture
 *    is cut into cells, each cell's paper is its bright end (the 90th percentile: ink is the
 *    minority), widened to its neighbours (a cell full of ink takes its neighbours' paper),
 *    and spread smoothly between cell centres.
 * 2. Each pixel's lightness relative to its paper (1 = paper, 0 = black) is split into ink and
 *    paper by Otsu's threshold over the whole picture.
 * 3. Alpha ramps smoothly from paper (transparent) to ink (opaque) around that threshold, and
 *    the colour is divided by the paper's level, so ink on grey paper is as dark as on white;
 *    an edge pixel's paper share is taken out of its colour (no grey fringe).
 * A picture with no clear second class (all paper, noise only) has no ink.
 */

const CELLS_ACROSS = 10;
const MIN_CELL = 16;
/** Ink and paper must differ at least this much (relative lightness) to count as ink at all. */
const MIN_CONTRAST = 0.18;
/** Pixels that end up fainter than this alpha do not count for the ink's bounds. */
const BOUNDS_ALPHA = 24;

export type InkBounds = { left: number; top: number; right: number; bottom: number };

/** Lightness over white (a transparent pixel is paper), 0..255. */
function lightnessOf(data: Uint8ClampedArray, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height);
  for (let i = 0; i < width * height; i += 1) {
    const at = i * 4;
    const luminance = 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!;
    const alpha = data[at + 3]! / 255;
    out[i] = luminance * alpha + 255 * (1 - alpha);
  }
  return out;
}

/** The paper's level at every pixel (see the file's comment, step 1). */
function paperLevels(light: Float32Array, width: number, height: number): Float32Array {
  const cell = Math.max(MIN_CELL, Math.ceil(Math.min(width, height) / CELLS_ACROSS));
  const columns = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const bright = new Float32Array(columns * rows);
  const histogram = new Uint32Array(256);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      histogram.fill(0);
      let count = 0;
      for (let y = row * cell; y < Math.min(height, (row + 1) * cell); y += 1)
        for (let x = column * cell; x < Math.min(width, (column + 1) * cell); x += 1) {
          histogram[Math.min(255, Math.round(light[y * width + x]!))]! += 1;
          count += 1;
        }
      let seen = 0;
      let level = 255;
      for (let value = 0; value < 256; value += 1) {
        seen += histogram[value]!;
        if (seen >= count * 0.9) {
          level = value;
          break;
        }
      }
      bright[row * columns + column] = level;
    }
  }
  const widened = new Float32Array(columns * rows);
  for (let row = 0; row < rows; row += 1)
    for (let column = 0; column < columns; column += 1) {
      let level = 0;
      for (let dy = -1; dy <= 1; dy += 1)
        for (let dx = -1; dx <= 1; dx += 1) {
          const r = row + dy;
          const c = column + dx;
          if (r >= 0 && r < rows && c >= 0 && c < columns) level = Math.max(level, bright[r * columns + c]!);
        }
      widened[row * columns + column] = Math.max(1, level);
    }
  const levels = new Float32Array(width * height);
  const at = (row: number, column: number) =>
    widened[Math.min(rows - 1, Math.max(0, row)) * columns + Math.min(columns - 1, Math.max(0, column))]!;
  for (let y = 0; y < height; y += 1) {
    const fy = (y + 0.5) / cell - 0.5;
    const row = Math.floor(fy);
    const ty = fy - row;
    for (let x = 0; x < width; x += 1) {
      const fx = (x + 0.5) / cell - 0.5;
      const column = Math.floor(fx);
      const tx = fx - column;
      const top = at(row, column) * (1 - tx) + at(row, column + 1) * tx;
      const bottom = at(row + 1, column) * (1 - tx) + at(row + 1, column + 1) * tx;
      levels[y * width + x] = top * (1 - ty) + bottom * ty;
    }
  }
  return levels;
}

/** Otsu's threshold over 256 bins of 0..1, with both classes' means. */
function otsu(values: Float32Array): { threshold: number; inkMean: number; paperMean: number } {
  const bins = new Float64Array(256);
  for (const value of values) bins[Math.min(255, Math.max(0, Math.round(value * 255)))]! += 1;
  const total = values.length;
  let sumAll = 0;
  for (let i = 0; i < 256; i += 1) sumAll += i * bins[i]!;
  let best = -1;
  let threshold = 0;
  let weightBelow = 0;
  let sumBelow = 0;
  let means = { ink: 0, paper: 255 };
  for (let i = 0; i < 256; i += 1) {
    weightBelow += bins[i]!;
    if (weightBelow === 0) continue;
    const weightAbove = total - weightBelow;
    if (weightAbove === 0) break;
    sumBelow += i * bins[i]!;
    const meanBelow = sumBelow / weightBelow;
    const meanAbove = (sumAll - sumBelow) / weightAbove;
    const between = weightBelow * weightAbove * (meanBelow - meanAbove) ** 2;
    if (between > best) {
      best = between;
      threshold = i;
      means = { ink: meanBelow, paper: meanAbove };
    }
  }
  return { threshold: (threshold + 0.5) / 255, inkMean: means.ink / 255, paperMean: means.paper / 255 };
}

/** Makes the paper transparent in place (see the file's comment); returns the ink's bounds, if any. */
export function clearPaper(data: Uint8ClampedArray, width: number, height: number): InkBounds | undefined {
  const light = lightnessOf(data, width, height);
  const levels = paperLevels(light, width, height);
  const relative = new Float32Array(width * height);
  for (let i = 0; i < relative.length; i += 1) relative[i] = Math.min(1, light[i]! / levels[i]!);
  const { threshold, inkMean, paperMean } = otsu(relative);
  const hasInk = paperMean - inkMean >= MIN_CONTRAST;
  // Opaque at and below halfway from the threshold to the ink, clear halfway to the paper.
  const opaqueAt = (inkMean + threshold) / 2;
  const clearAt = Math.max(opaqueAt + 0.02, (threshold + paperMean) / 2);
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const i = y * width + x;
      const at = i * 4;
      const inkiness = hasInk ? Math.min(1, Math.max(0, (clearAt - relative[i]!) / (clearAt - opaqueAt))) : 0;
      const alpha = Math.round(data[at + 3]! * inkiness);
      // Lit evenly (paper to white), then the paper's share of an edge pixel taken out of its
      // colour, so a stroke's soft edge is fainter ink, not a grey fringe.
      const gain = 255 / levels[i]!;
      for (let channel = 0; channel < 3; channel += 1) {
        const lit = Math.min(255, data[at + channel]! * gain);
        data[at + channel] = inkiness > 0 ? Math.max(0, (lit - (1 - inkiness) * 255) / inkiness) : lit;
      }
      data[at + 3] = alpha;
      if (alpha > BOUNDS_ALPHA) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
    }
  }
  return right < 0 ? undefined : { left, top, right, bottom };
}
