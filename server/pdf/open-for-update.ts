import { randomBytes } from 'node:crypto';
import { EncryptedPDFError, PDFArray, PDFDocument, PDFHexString, PDFRef, PDFString } from 'pdf-lib';
import {
  collectUpdateObjects,
  snapshotObjects,
  writeIncrementalUpdate,
  type ObjectSnapshot,
  type UpdateObject,
  type UpdateTrailer,
  type WrittenUpdate,
} from './incremental-update';
import { IN_ONE_GO } from './in-one-go';
import { readPdfTail, type PdfTail } from './read-pdf-tail';

/**
 * A PDF loaded to be added to by one incremental update (the seal, the tag covers, a document
 * timestamp): pdf-lib's document over `base`, and the base's cross-reference tail to chain to,
 * undefined when `startxref` leads to none (a damaged file that readers repair by scanning,
 * which can only be rewritten whole).
 */
export type OpenedForUpdate = {
  doc: PDFDocument;
  base: Uint8Array;
  tail: PdfTail | undefined;
  snapshot?: ObjectSnapshot;
};

/**
 * Loads `base` in one go (IN_ONE_GO: no timer every 100 objects), numbers
 * new objects after the base's /Size, and, with `snapshot`, keeps the serialized form of every
 * object so that `changedObjects` finds what pdf-lib changed in place.
 */
export async function openForUpdate(base: Uint8Array, options: { snapshot?: boolean } = {}): Promise<OpenedForUpdate> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(base, IN_ONE_GO);
  } catch (error) {
    if (error instanceof EncryptedPDFError)
      throw new Error('The PDF is encrypted; nothing can be added to it.', { cause: error });
    throw error;
  }
  const tail = readPdfTail(base);
  if (tail) doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, tail.size - 1);
  const snapshot = tail && options.snapshot ? snapshotObjects(doc.context) : undefined;
  return { doc, base, tail, ...(snapshot ? { snapshot } : {}) };
}

/** Every object made since `openForUpdate` and every loaded one that changed (flush the document first). */
export function changedObjects(opened: OpenedForUpdate): UpdateObject[] {
  if (!opened.snapshot) throw new Error('the PDF was opened without a snapshot to compare with');
  return collectUpdateObjects(opened.doc.context, opened.snapshot);
}

/**
 * Appends `objects` to the base as one incremental update, with a cross-reference section of
 * the base's kind and the trailer of `trailerOf`; the base stays the exact prefix.
 */
export function appendUpdate(opened: OpenedForUpdate & { tail: PdfTail }, objects: UpdateObject[]): WrittenUpdate {
  const { doc, base, tail } = opened;
  const xrefStreamRef = tail.kind === 'stream' ? doc.context.nextRef() : undefined;
  return writeIncrementalUpdate(base, tail, objects, trailerOf(doc, tail.size), xrefStreamRef);
}

/** The update's trailer: same /Root and /Info, the original's first /ID kept and a new second one. */
export function trailerOf(doc: PDFDocument, size: number): UpdateTrailer {
  const { Root, Info, ID } = doc.context.trailerInfo;
  if (!(Root instanceof PDFRef)) throw new Error('The original PDF has no catalog reference in its trailer.');
  const first = ID instanceof PDFArray ? ID.get(0) : undefined;
  const permanent = first instanceof PDFHexString || first instanceof PDFString ? first.asBytes() : randomBytes(16);
  return { size, root: Root, info: Info, id: [permanent, randomBytes(16)] };
}
