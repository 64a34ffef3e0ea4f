import { createRequire } from 'node:module';
import { clearPaper } from './clear-paper';
import { checkMarkSize, MarkImageError, MAX_SOURCE_PIXELS } from './mark-size';

type Canvas = typeof import('@napi-rs/canvas');
type Png = typeof import('pngjs');
type Jpeg = typeof import('jpeg-js');

/** What a drawn or uploaded mark becomes: a PNG of the ink on transparency, trimmed, at most this large. */
const MAX_WIDTH = 1200;
const MAX_HEIGHT = 600;

export type PreparedMark = { png: Uint8Array; width: number; height: number };

export { MarkImageError };

const require = createRequire(import.meta.url);

/**
 * The picture's pixels (RGBA), decoded by pure JavaScript decoders: a damaged or hostile file
 * then fails with an error in this worker's heap, where Skia's native decoder can crash the
 * whole process on a broken PNG.
 */
function decodePixels(bytes: Uint8Array): { width: number; height: number; data: Uint8Array } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    // Loaded here, not with the worker: a sandbox worker starts with only what its first task needs.
    if (buffer[0] === 0x89) {
      const png = (require('pngjs') as Png).PNG.sync.read(buffer);
      return { width: png.width, height: png.height, data: png.data };
    }
    const decoded = (require('jpeg-js') as Jpeg).decode(buffer, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: MAX_SOURCE_PIXELS / 1_000_000,
      maxMemoryUsageInMB: 256,
    });
    return { width: decoded.width, height: decoded.height, data: decoded.data };
  } catch {
    throw new MarkImageError('The picture could not be read.');
  }
}

/**
 * A drawn or uploaded mark made safe to stamp: the format checked from its bytes, its size
 * bounded before decoding, decoded, fitted to 1200x600, the paper taken out at the paper's own
 * level (clear-paper.ts: a photo of a signature on grey paper becomes ink), trimmed to the ink
 * and encoded afresh as PNG. Runs in the PDF sandbox: a hostile image costs a worker at most.
 */
export async function prepareMark(input: { bytes: Uint8Array }): Promise<PreparedMark> {
  // Checked again here (the request thread checked first): the sandbox never decodes past the budget.
  checkMarkSize(input.bytes);
  const decoded = decodePixels(input.bytes);
  const canvas = require('@napi-rs/canvas') as Canvas;
  const image = canvas.createCanvas(decoded.width, decoded.height);
  const source = image.getContext('2d');
  const sourcePixels = source.createImageData(decoded.width, decoded.height);
  sourcePixels.data.set(decoded.data);
  source.putImageData(sourcePixels, 0, 0);
  const scale = Math.min(1, MAX_WIDTH / image.width, MAX_HEIGHT / image.height);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const work = canvas.createCanvas(width, height);
  const context = work.getContext('2d');
  context.drawImage(image, 0, 0, width, height);
  const pixels = context.getImageData(0, 0, width, height);
  const bounds = clearPaper(pixels.data, width, height);
  if (!bounds) throw new MarkImageError('The picture holds no signature: it is empty or all paper.');
  context.putImageData(pixels, 0, 0);
  const pad = 4;
  const left = Math.max(0, bounds.left - pad);
  const top = Math.max(0, bounds.top - pad);
  const cropWidth = Math.min(width, bounds.right + pad + 1) - left;
  const cropHeight = Math.min(height, bounds.bottom + pad + 1) - top;
  const trimmed = canvas.createCanvas(cropWidth, cropHeight);
  trimmed.getContext('2d').drawImage(work, left, top, cropWidth, cropHeight, 0, 0, cropWidth, cropHeight);
  const png = await trimmed.encode('png');
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: cropWidth, height: cropHeight };
}
