/** Where the original's last cross-reference section is and what kind it is. */
export type PdfTail = {
  /** Offset of the last cross-reference section (the value after the last `startxref`). */
  startxref: number;
  kind: 'table' | 'stream';
  /** The trailer's /Size: one more than the highest object number in use. */
  size: number;
  /** Whether the file ends with an end-of-line (else one is added before the update). */
  endsWithEol: boolean;
};

const TAIL_WINDOW = 2048;
const HEAD_WINDOW = 4096;

/**
 * Reads the end of a PDF to append an incremental update to it. Returns undefined when the
 * `startxref` offset does not lead to a cross-reference section (a damaged file that readers
 * repair by scanning): an update's /Prev would point nowhere, so such files are rewritten whole.
 */
export function readPdfTail(bytes: Uint8Array): PdfTail | undefined {
  const tail = latin1(bytes, Math.max(0, bytes.length - TAIL_WINDOW), bytes.length);
  const at = tail.lastIndexOf('startxref');
  if (at < 0) return undefined;
  const match = /^startxref\s+(\d+)/.exec(tail.slice(at));
  if (!match) return undefined;
  const startxref = Number(match[1]);
  if (!Number.isSafeInteger(startxref) || startxref >= bytes.length) return undefined;

  const head = latin1(bytes, startxref, Math.min(bytes.length, startxref + HEAD_WINDOW));
  const last = bytes[bytes.length - 1];
  const endsWithEol = last === 0x0a || last === 0x0d;
  if (/^xref\s/.test(head)) {
    const size = sizeFromTrailer(bytes, startxref);
    return size === undefined ? undefined : { startxref, kind: 'table', size, endsWithEol };
  }
  const object = /^\d+\s+\d+\s+obj\s*<<([\s\S]*?)stream/.exec(head);
  if (!object || !/\/Type\s*\/XRef\b/.test(object[1]!)) return undefined;
  const size = /\/Size\s+(\d+)/.exec(object[1]!);
  return size ? { startxref, kind: 'stream', size: Number(size[1]), endsWithEol } : undefined;
}

/** The /Size of the trailer that follows a classic cross-reference table. */
function sizeFromTrailer(bytes: Uint8Array, xrefOffset: number): number | undefined {
  const trailerAt = indexOfAscii(bytes, 'trailer', xrefOffset);
  if (trailerAt < 0) return undefined;
  const trailer = latin1(bytes, trailerAt, Math.min(bytes.length, trailerAt + HEAD_WINDOW));
  const size = /\/Size\s+(\d+)/.exec(trailer);
  return size ? Number(size[1]) : undefined;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

function indexOfAscii(bytes: Uint8Array, needle: string, from: number): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle, from, 'latin1');
}
