import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { clearPaper } from '../../server/pdf/clear-paper';
import { PHOTO_INK_PATH, signaturePhoto } from '../helpers/signature-photo';

async function pixelsOf(bytes: Buffer) {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, image.width, image.height);
}

/** Points the stroke surely passes: its ends and the midpoints the curve is drawn through. */
function pointsOnStroke(width: number, height: number): Array<[number, number]> {
  const points = PHOTO_INK_PATH.map(([fx, fy]) => [fx * width, fy * height] as [number, number]);
  const rest = points.slice(1);
  const middles = rest
    .slice(0, -1)
    .map(([x, y], i) => [(x + rest[i + 1]![0]) / 2, (y + rest[i + 1]![1]) / 2] as [number, number]);
  return [points[0]!, ...middles, points.at(-1)!];
}

describe('taking the paper out of a photographed signature', () => {
  it('leaves the ink opaque and dark and the grey, unevenly lit paper transparent', async () => {
    const photo = await pixelsOf(signaturePhoto());
    const { width, height, data } = photo;
    const bounds = clearPaper(data, width, height);
    expect(bounds).toBeDefined();
    const alphaAt = (x: number, y: number) => data[(Math.round(y) * width + Math.round(x)) * 4 + 3]!;
    const lightnessAt = (x: number, y: number) => {
      const at = (Math.round(y) * width + Math.round(x)) * 4;
      return 0.299 * data[at]! + 0.587 * data[at + 1]! + 0.114 * data[at + 2]!;
    };
    for (const [x, y] of pointsOnStroke(width, height)) {
      expect(alphaAt(x, y), `ink at ${x},${y}`).toBe(255);
      expect(lightnessAt(x, y)).toBeLessThan(110);
    }
    // Paper everywhere away from the stroke: the bright corner, the dark corner, above and below.
    for (const [fx, fy] of [
      [0.02, 0.02],
      [0.98, 0.98],
      [0.98, 0.02],
      [0.02, 0.98],
      [0.5, 0.1],
      [0.5, 0.9],
    ] as const) {
      expect(alphaAt(fx * width, fy * height), `paper at ${fx},${fy}`).toBe(0);
    }
    let clear = 0;
    let opaque = 0;
    for (let i = 3; i < data.length; i += 4) {
      if (data[i] === 0) clear += 1;
      if (data[i] === 255) opaque += 1;
    }
    const pixels = width * height;
    // Nearly all of it is paper, the stroke is a small part, and little is in between.
    expect(clear / pixels).toBeGreaterThan(0.93);
    expect(opaque / pixels).toBeGreaterThan(0.01);
    expect(opaque / pixels).toBeLessThan(0.06);
    expect((pixels - clear - opaque) / pixels).toBeLessThan(0.02);
  });

  it('finds no ink in a photo of bare paper, and keeps a drawn mark on transparency as it is', async () => {
    const bare = createCanvas(400, 200);
    const bareContext = bare.getContext('2d');
    const gradient = bareContext.createLinearGradient(0, 0, 400, 200);
    gradient.addColorStop(0, '#d4d0c8');
    gradient.addColorStop(1, '#a8a49c');
    bareContext.fillStyle = gradient;
    bareContext.fillRect(0, 0, 400, 200);
    const barePixels = bareContext.getImageData(0, 0, 400, 200);
    expect(clearPaper(barePixels.data, 400, 200)).toBeUndefined();

    const drawn = createCanvas(400, 200);
    const drawnContext = drawn.getContext('2d');
    drawnContext.strokeStyle = '#101828';
    drawnContext.lineWidth = 6;
    drawnContext.beginPath();
    drawnContext.moveTo(20, 150);
    drawnContext.lineTo(380, 50);
    drawnContext.stroke();
    const drawnPixels = drawnContext.getImageData(0, 0, 400, 200);
    const bounds = clearPaper(drawnPixels.data, 400, 200);
    expect(bounds).toEqual({
      left: expect.closeTo(18, -1),
      top: expect.closeTo(47, -1),
      right: expect.closeTo(382, -1),
      bottom: expect.closeTo(153, -1),
    });
    expect(drawnPixels.data[(100 * 400 + 200) * 4 + 3]).toBe(255);
    expect(drawnPixels.data[(20 * 400 + 20) * 4 + 3]).toBe(0);
  });
});
