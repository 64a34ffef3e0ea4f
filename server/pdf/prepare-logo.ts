import { createRequire } from 'node:module';
import { checkLogo, checkSvgText, LogoImageError } from './logo-check';

type Canvas = typeof import('@napi-rs/canvas');
type Png = typeof import('pngjs');

/** The logo as served and embedded: at most this large, its proportions kept. */
const BOX = { width: 800, height: 320 };

export type PreparedLogo = { png: Uint8Array; width: number; height: number; kind: 'png' | 'svg' };

export { LogoImageError };

const require = createRequire(import.meta.url);

/**
 * The office's logo made safe to serve and embed: checked by its header (logo-check.ts), a PNG
 * decoded by pngjs (pure JavaScript: a hostile file fails in this worker's heap, not in Skia's
 * native decoder) and an SVG, checked for anything but shapes, drawn by Skia; either is fitted
 * into 800x320 (an SVG drawn at that size, a PNG never enlarged) and encoded afresh as a PNG,
 * which drops every chunk and element the upload carried. Runs in the PDF sandbox.
 */
export async function prepareLogo(input: { bytes: Uint8Array }): Promise<PreparedLogo> {
  const { kind, size } = checkLogo(input.bytes);
  const canvas = require('@napi-rs/canvas') as Canvas;
  const fit = Math.min(BOX.width / size.width, BOX.height / size.height);
  const scale = kind === 'svg' ? fit : Math.min(1, fit);
  const width = Math.max(1, Math.round(size.width * scale));
  const height = Math.max(1, Math.round(size.height * scale));
  const target = canvas.createCanvas(width, height);
  const context = target.getContext('2d');
  if (kind === 'png') {
    let decoded: { width: number; height: number; data: Uint8Array };
    try {
      decoded = (require('pngjs') as Png).PNG.sync.read(Buffer.from(input.bytes));
    } catch {
      throw new LogoImageError('The PNG could not be read.');
    }
    const source = canvas.createCanvas(decoded.width, decoded.height);
    const pixels = source.getContext('2d').createImageData(decoded.width, decoded.height);
    pixels.data.set(decoded.data);
    source.getContext('2d').putImageData(pixels, 0, 0);
    context.drawImage(source, 0, 0, width, height);
  } else {
    checkSvgText(input.bytes);
    const image = new canvas.Image();
    try {
      image.src = Buffer.from(input.bytes);
    } catch {
      throw new LogoImageError('The SVG could not be drawn.');
    }
    if (!image.complete || image.width < 1) throw new LogoImageError('The SVG could not be drawn.');
    context.drawImage(image, 0, 0, width, height);
  }
  const png = await target.encode('png');
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height, kind };
}
