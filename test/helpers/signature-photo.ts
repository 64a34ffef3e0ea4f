import { createCanvas } from '@napi-rs/canvas';

/**
 * A phone photo of a signature, as indoor photos are: greyish paper (luminance about 165-215)
 * lit unevenly from one corner, with grain, a slight warm cast, a handwritten-looking stroke
 * in blue-black ink with soft edges, JPEG-compressed. Deterministic (its own seeded noise).
 * `inkPath` gives the stroke's points (fractions of the picture) so tests know where ink is.
 */
export const PHOTO_INK_PATH: Array<[number, number]> = [
  [0.1, 0.62],
  [0.18, 0.3],
  [0.24, 0.7],
  [0.32, 0.35],
  [0.4, 0.66],
  [0.5, 0.4],
  [0.6, 0.6],
  [0.72, 0.38],
  [0.9, 0.55],
];

export function signaturePhoto(options: { width?: number; height?: number; quality?: number } = {}): Buffer {
  const width = options.width ?? 1200;
  const height = options.height ?? 600;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  const image = context.createImageData(width, height);
  let seed = 26;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      // Brightest near the top-left (the lamp), darkest at the far corner: 215 down to 165.
      const fall = Math.hypot(x / width, y / height) / Math.SQRT2;
      const level = 215 - 50 * fall + (random() - 0.5) * 14;
      const at = (y * width + x) * 4;
      image.data[at] = Math.min(255, level + 6);
      image.data[at + 1] = Math.min(255, level + 2);
      image.data[at + 2] = Math.max(0, level - 8);
      image.data[at + 3] = 255;
    }
  context.putImageData(image, 0, 0);
  context.filter = 'blur(1px)';
  context.strokeStyle = 'rgb(38, 44, 88)';
  context.lineWidth = Math.max(4, Math.round(height / 70));
  context.lineCap = 'round';
  context.lineJoin = 'round';
  context.beginPath();
  const [first, ...rest] = PHOTO_INK_PATH.map(([fx, fy]) => [fx * width, fy * height] as const);
  context.moveTo(first![0], first![1]);
  for (let i = 0; i < rest.length - 1; i += 1) {
    const [x, y] = rest[i]!;
    const [nx, ny] = rest[i + 1]!;
    context.quadraticCurveTo(x, y, (x + nx) / 2, (y + ny) / 2);
  }
  context.lineTo(rest.at(-1)![0], rest.at(-1)![1]);
  context.stroke();
  return canvas.toBuffer('image/jpeg', options.quality ?? 80);
}
