import { PDFContext, PDFNumber, PDFObjectStreamParser, PDFRawStream } from 'pdf-lib';

type ByteStreamProto = { slice(this: { bytes: Uint8Array }, start: number, end: number): Uint8Array };

/**
 * Lets pdf-lib's parser keep each stream's bytes as a view of the PDF it reads instead of a
 * copy, in the PDF sandbox's worker threads. The parser copies every stream (`ByteStream.slice`),
 * so a 2 MiB upload was read twice over, and the copies of every upload, garbage a moment later,
 * made the worker's collector run a full collection every few uploads. A task's input belongs
 * to its worker (copied or moved across) and no task writes into it, nor returns a stream's
 * bytes, so nothing can tell a view from a copy.
 */
export function readStreamsInPlace(): void {
  const context = PDFContext.create();
  const empty = PDFRawStream.of(context.obj({ N: PDFNumber.of(0), First: PDFNumber.of(0) }), new Uint8Array(0));
  const parser = PDFObjectStreamParser.forStream(empty) as unknown as {
    bytes: { constructor: { prototype: unknown } };
  };
  const byteStream = parser.bytes.constructor.prototype as ByteStreamProto;
  if (typeof byteStream.slice !== 'function') throw new Error('pdf-lib changed: its streams cannot be read in place');
  byteStream.slice = function (start, end) {
    return this.bytes.subarray(start, end);
  };
}
