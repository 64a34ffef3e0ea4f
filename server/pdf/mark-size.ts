/**
 * A mark's picture is judged by its header before anything decodes it: a 93 KB PNG can claim
 * 24 megapixels and cost a PDF worker seconds to decode. The signing page sends pictures fitted
 * to 1200x600 (upload) or to the pad at the screen's pixel ratio (drawn), so 4 megapixels is ample; anything larger is refused
 * in microseconds, on the request thread, before it reaches the PDF sandbox.
 */
export const MAX_SOURCE_EDGE = 4_000;
export const MAX_SOURCE_PIXELS = 4_000_000;

/** A picture that cannot be a mark; its message is shown to the party. */
export class MarkImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MarkImageError';
  }
}

/** Width and height from the file's own header: PNG's IHDR, JPEG's start-of-frame. Anything else is refused. */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (
    data.length >= 24 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) &&
    data.toString('latin1', 12, 16) === 'IHDR'
  ) {
    return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    let at = 2;
    while (at + 9 < data.length) {
      if (data[at] !== 0xff) break;
      const marker = data[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { width: data.readUInt16BE(at + 7), height: data.readUInt16BE(at + 5) };
      at += 2 + data.readUInt16BE(at + 2);
    }
    throw new MarkImageError('The JPEG has no readable size.');
  }
  throw new MarkImageError('The picture must be a PNG or a JPEG.');
}

/** The picture's size from its header, refused past the pixel budget (MarkImageError). Reads a few bytes only. */
export function checkMarkSize(bytes: Uint8Array): { width: number; height: number } {
  const size = readImageSize(bytes);
  if (
    size.width < 1 ||
    size.height < 1 ||
    size.width > MAX_SOURCE_EDGE ||
    size.height > MAX_SOURCE_EDGE ||
    size.width * size.height > MAX_SOURCE_PIXELS
  ) {
    throw new MarkImageError(
      `The picture is ${size.width}x${size.height} pixels; at most ${MAX_SOURCE_EDGE} on a side and ${MAX_SOURCE_PIXELS / 1_000_000} megapixels are taken.`,
    );
  }
  return size;
}
