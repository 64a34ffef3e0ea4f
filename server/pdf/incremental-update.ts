import { PDFRawStream, PDFStream, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib';
import { withNativeDeflate } from './native-deflate';
import type { PdfTail } from './read-pdf-tail';

/** The serialized form of every indirect object as loaded, to find which ones we changed. */
export type ObjectSnapshot = Map<PDFRef, string>;

/** One object of the update: a pdf-lib object, or bytes we wrote ourselves (the signature dictionary). */
export type UpdateObject = { ref: PDFRef; object?: PDFObject; raw?: Uint8Array };

export type UpdateTrailer = { size: number; root: PDFRef; info?: PDFObject; id: [Uint8Array, Uint8Array] };

export type WrittenUpdate = { bytes: Buffer; offsets: Map<PDFRef, number> };

/**
 * pdf-lib changes loaded objects in place (a page's /Contents, a shared /Resources, the page
 * tree's /Kids and /Count, the catalog), so rather than guessing which ones an operation
 * touches we compare each object's serialized form before and after. Streams are compared by
 * their dictionary: their bytes are never rewritten in place.
 */
export function snapshotObjects(context: PDFContext): ObjectSnapshot {
  const snapshot: ObjectSnapshot = new Map();
  for (const [ref, object] of context.enumerateIndirectObjects()) snapshot.set(ref, fingerprintOf(object));
  return snapshot;
}

/** The objects to write in the update: every object made since the load, and every loaded one that changed. */
export function collectUpdateObjects(context: PDFContext, snapshot: ObjectSnapshot): UpdateObject[] {
  const objects: UpdateObject[] = [];
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const before = snapshot.get(ref);
    if (before === undefined || before !== fingerprintOf(object)) objects.push({ ref, object });
  }
  return objects;
}

function fingerprintOf(object: PDFObject): string {
  if (object instanceof PDFRawStream) return `stream ${object.dict.toString()}`;
  if (object instanceof PDFStream) return `new stream ${object.dict.toString()}`;
  return object.toString();
}

/**
 * Appends an incremental update to `base`: the objects, then a cross-reference section of the
 * same kind as the base's last one (a table, or a cross-reference stream for files that use
 * them) whose /Prev chains to it, then the trailer. `base` stays the exact prefix of the result.
 */
export function writeIncrementalUpdate(
  base: Uint8Array,
  tail: PdfTail,
  objects: UpdateObject[],
  trailer: UpdateTrailer,
  xrefStreamRef?: PDFRef,
): WrittenUpdate {
  const chunks: Uint8Array[] = [];
  const offsets = new Map<PDFRef, number>();
  let position = base.length;
  const push = (chunk: Uint8Array) => {
    chunks.push(chunk);
    position += chunk.length;
  };
  if (!tail.endsWithEol) push(ascii('\n'));

  const sorted = [...objects].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  for (const { ref, object, raw } of sorted) {
    offsets.set(ref, position);
    push(ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    push(raw ?? serialize(withNativeDeflate(object!)));
    push(ascii('\nendobj\n'));
  }

  const highest = Math.max(...sorted.map((item) => item.ref.objectNumber), xrefStreamRef?.objectNumber ?? 0);
  const size = Math.max(trailer.size, highest + 1);
  const xrefOffset = position;
  if (tail.kind === 'stream' && xrefStreamRef) {
    offsets.set(xrefStreamRef, xrefOffset);
    const entries = [...sorted.map((item) => item.ref), xrefStreamRef].map((ref) => ({
      ref,
      offset: offsets.get(ref)!,
    }));
    push(xrefStream(xrefStreamRef, entries, size, tail.startxref, trailer));
  } else {
    push(
      xrefTable(
        sorted.map((item) => ({ ref: item.ref, offset: offsets.get(item.ref)! })),
        size,
        tail.startxref,
        trailer,
      ),
    );
  }
  push(ascii(`startxref\n${xrefOffset}\n%%EOF\n`));

  const bytes = Buffer.allocUnsafe(position);
  bytes.set(base, 0);
  let at = base.length;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, offsets };
}

type XrefEntry = { ref: PDFRef; offset: number };

function xrefTable(entries: XrefEntry[], size: number, prev: number, trailer: UpdateTrailer): Uint8Array {
  const lines = ['xref'];
  for (const run of contiguousRuns(entries)) {
    lines.push(`${run[0]!.ref.objectNumber} ${run.length}`);
    for (const { ref, offset } of run)
      lines.push(`${String(offset).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n\r`);
  }
  lines.push(`trailer\n<< ${trailerEntries(size, prev, trailer)} >>\n`);
  return ascii(lines.join('\n'));
}

function xrefStream(
  self: PDFRef,
  entries: XrefEntry[],
  size: number,
  prev: number,
  trailer: UpdateTrailer,
): Uint8Array {
  const sorted = [...entries].sort((a, b) => a.ref.objectNumber - b.ref.objectNumber);
  const largest = Math.max(...sorted.map((entry) => entry.offset));
  const offsetWidth = largest < 2 ** 32 ? 4 : 8;
  const rowWidth = 1 + offsetWidth + 2;
  const data = Buffer.alloc(sorted.length * rowWidth);
  sorted.forEach(({ ref, offset }, row) => {
    const at = row * rowWidth;
    data[at] = 1;
    if (offsetWidth === 4) data.writeUInt32BE(offset, at + 1);
    else data.writeBigUInt64BE(BigInt(offset), at + 1);
    data.writeUInt16BE(ref.generationNumber, at + 1 + offsetWidth);
  });
  const index = contiguousRuns(sorted)
    .map((run) => `${run[0]!.ref.objectNumber} ${run.length}`)
    .join(' ');
  const dict = `<< /Type /XRef /W [1 ${offsetWidth} 2] /Index [${index}] /Length ${data.length} ${trailerEntries(size, prev, trailer)} >>`;
  return Buffer.concat([
    ascii(`${self.objectNumber} ${self.generationNumber} obj\n${dict}\nstream\n`),
    data,
    ascii('\nendstream\nendobj\n'),
  ]);
}

function trailerEntries(size: number, prev: number, trailer: UpdateTrailer): string {
  const hex = (bytes: Uint8Array) => `<${Buffer.from(bytes).toString('hex').toUpperCase()}>`;
  const info = trailer.info ? ` /Info ${trailer.info.toString()}` : '';
  return `/Size ${size} /Root ${trailer.root.toString()}${info} /ID [${hex(trailer.id[0])} ${hex(trailer.id[1])}] /Prev ${prev}`;
}

function contiguousRuns(entries: XrefEntry[]): XrefEntry[][] {
  const runs: XrefEntry[][] = [];
  for (const entry of entries) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.ref.objectNumber + 1 === entry.ref.objectNumber) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

export function serialize(object: PDFObject): Uint8Array {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

export function ascii(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}
