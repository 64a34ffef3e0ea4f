import { ParseSpeeds, PDFDocument } from 'pdf-lib';
import { MAX_PDF_PAGES } from '../../shared/constants';
import { trailerOf } from './build-signed-pdf';
import { checkPageTree } from './check-page-tree';
import { collectUpdateObjects, snapshotObjects, writeIncrementalUpdate } from './incremental-update';
import { useNativeDeflate } from './native-deflate';
import { readPdfTail } from './read-pdf-tail';
import type { SignedPdfCover } from './signed-pdf-types';
import { paintCovers } from './stamp-fields';

/**
 * The document a party downloads before signing: the original with its text tags painted over,
 * as the signing page's images and the sealed PDF show it. The covers are one incremental update,
 * so the original bytes stay the exact prefix (cut the file at the original's length to compare
 * hashes); an original without a readable cross-reference section is rewritten whole. Without
 * covers the original comes back as it is.
 */
export async function coverTags(input: { bytes: Uint8Array; covers: SignedPdfCover[] }): Promise<Uint8Array> {
  const { bytes, covers } = input;
  if (covers.length === 0) return bytes;
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  checkPageTree(doc, MAX_PDF_PAGES);
  useNativeDeflate(doc.context);
  const tail = readPdfTail(bytes);
  if (tail) doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, tail.size - 1);
  const snapshot = tail ? snapshotObjects(doc.context) : undefined;
  paintCovers(doc, covers);
  await doc.flush();
  if (!tail || !snapshot) {
    return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  }
  const objects = collectUpdateObjects(doc.context, snapshot);
  const xrefStreamRef = tail.kind === 'stream' ? doc.context.nextRef() : undefined;
  return writeIncrementalUpdate(bytes, tail, objects, trailerOf(doc, tail.size), xrefStreamRef).bytes;
}
