import zlib from 'node:zlib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFContext,
  PDFName,
  PDFNumber,
  PDFObjectStreamParser,
  PDFRawStream,
} from 'pdf-lib';
import { PdfReadError } from '../pdf-read-error';

/**
 * A bound on the bytes pdf-lib unpacks from a PDF's compressed streams, for the PDF sandbox's
 * worker threads. The V8 heap limit does not see them: inflated streams live in ArrayBuffers,
 * so a 2 MB object stream can ask for gigabytes. pdf-lib unpacks through two doors, both
 * watched here: the parser turns object and cross-reference streams into bytes with
 * `ByteStream.fromPDFRawStream` (replaced by a bounded native inflate, which is also some 50
 * times faster than pdf-lib's JavaScript one), and every other decode grows its buffer through
 * `DecodeStream.prototype.ensureBuffer` (counted). Past the budget the read fails as
 * `too-complex`, even where pdf-lib's lenient parser would have carried on without the object.
 */

type Budget = { remaining: number; isExceeded: boolean; maxBytes: number };
let budget: Budget | undefined;

type ByteStreamClass = { of(bytes: Uint8Array): unknown; fromPDFRawStream(raw: PDFRawStream): unknown };
type DecodeStreamProto = { ensureBuffer(this: object, requested: number): Uint8Array };

const exceeded = (maxBytes: number) =>
  new PdfReadError(
    'too-complex',
    `The PDF's compressed streams unpack to more than ${Math.round(maxBytes / 2 ** 20)} MiB; it cannot be used.`,
  );

function charge(bytes: number): void {
  if (!budget) return;
  budget.remaining -= bytes;
  if (budget.remaining < 0) {
    budget.isExceeded = true;
    throw exceeded(budget.maxBytes);
  }
}

/** pdf-lib keeps these classes to itself; an object stream parser and a decoder made of nothing show them. */
function pdfLibInternals(): { byteStream: ByteStreamClass; decodeStream: DecodeStreamProto } {
  const context = PDFContext.create();
  const empty = PDFRawStream.of(context.obj({ N: PDFNumber.of(0), First: PDFNumber.of(0) }), new Uint8Array(0));
  const parser = PDFObjectStreamParser.forStream(empty) as unknown as { bytes: { constructor: ByteStreamClass } };
  const flate = decodePDFRawStream(
    PDFRawStream.of(context.obj({ Filter: PDFName.of('FlateDecode') }), zlib.deflateSync(Buffer.alloc(0))),
  );
  const decodeStream = Object.getPrototypeOf(Object.getPrototypeOf(flate)) as DecodeStreamProto;
  if (
    typeof parser.bytes.constructor.fromPDFRawStream !== 'function' ||
    typeof decodeStream.ensureBuffer !== 'function'
  ) {
    throw new Error('pdf-lib changed: the inflate budget cannot be installed');
  }
  return { byteStream: parser.bytes.constructor, decodeStream };
}

let isInstalled = false;

function install(): void {
  if (isInstalled) return;
  isInstalled = true;
  const { byteStream, decodeStream } = pdfLibInternals();
  const counted = new WeakMap<object, number>();
  const ensureBuffer = decodeStream.ensureBuffer;
  decodeStream.ensureBuffer = function (requested: number) {
    const already = counted.get(this) ?? 0;
    if (requested > already) {
      charge(requested - already);
      counted.set(this, requested);
    }
    return ensureBuffer.call(this, requested);
  };
  byteStream.fromPDFRawStream = (raw: PDFRawStream) => byteStream.of(unpack(raw));
}

/**
 * Output chunks of a native inflate: zlib's 16 KiB for small streams, larger for large ones, so
 * that a stream of many megabytes is not unpacked (and joined again) in thousands of pieces.
 */
const MAX_CHUNK_BYTES = 256 * 1024;
const chunkSizeFor = (packed: Uint8Array) =>
  Math.min(MAX_CHUNK_BYTES, Math.max(zlib.constants.Z_DEFAULT_CHUNK, packed.length * 4));

/** A stream's bytes as pdf-lib's parser would have them (it ignores DecodeParms for Flate too), within the budget. */
function unpack(raw: PDFRawStream): Uint8Array {
  if (raw.dict.lookup(PDFName.of('Filter')) === PDFName.of('FlateDecode') && budget) {
    try {
      const inflated = zlib.inflateSync(raw.contents, {
        maxOutputLength: Math.max(1, budget.remaining + 1),
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
        chunkSize: chunkSizeFor(raw.contents),
      });
      charge(inflated.length);
      return inflated;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        budget.isExceeded = true;
        throw exceeded(budget.maxBytes);
      }
      if (error instanceof PdfReadError) throw error;
      // Damaged data (a wrong checksum, say): pdf-lib's own decoder is more forgiving, and counted.
    }
  }
  return decodePDFRawStream(raw).decode();
}

/** Filters pdf-lib can undo; image codecs (DCT, JPX, JBIG2, CCITT) are pdf.js's, bounded by its image size limit. */
const UNPACKABLE = new Set(['FlateDecode', 'LZWDecode', 'ASCIIHexDecode', 'ASCII85Decode', 'RunLengthDecode']);

function filtersOf(raw: PDFRawStream): string[] {
  const filter = raw.dict.lookup(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (filter instanceof PDFArray)
    return filter.asArray().map((item) => (item instanceof PDFName ? item.decodeText() : '?'));
  return [];
}

/**
 * Unpacks every compressed stream of an uploaded PDF once, within the task's budget: page
 * contents too, which pdf-lib's parse leaves packed but pdf.js (page images, text tags) later
 * unpacks whole in its own decoder, where no budget reaches. A PDF accepted here cannot unpack
 * to more than the budget there either (its bytes never change once stored). Damaged data is
 * left to the reader that meets it.
 */
export function unpackEveryStream(context: PDFContext): void {
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream)) continue;
    const filters = filtersOf(object);
    if (filters.length === 0 || !filters.every((name) => UNPACKABLE.has(name))) continue;
    try {
      if (filters.length === 1 && filters[0] === 'FlateDecode') unpack(object);
      else decodePDFRawStream(object).decode();
    } catch (error) {
      if (error instanceof PdfReadError || budget?.isExceeded) throw error;
    }
  }
}

/**
 * Runs `work` (one task of the worker, which runs one at a time) with at most `maxBytes`
 * unpacked from compressed streams. Refused as too-complex past that, whether or not pdf-lib
 * swallowed the error and went on.
 */
export async function withInflateBudget<T>(maxBytes: number, work: () => Promise<T>): Promise<T> {
  install();
  const own: Budget = { remaining: maxBytes, isExceeded: false, maxBytes };
  budget = own;
  try {
    const result = await work();
    if (own.isExceeded) throw exceeded(maxBytes);
    return result;
  } catch (error) {
    throw own.isExceeded ? exceeded(maxBytes) : error;
  } finally {
    budget = undefined;
  }
}
