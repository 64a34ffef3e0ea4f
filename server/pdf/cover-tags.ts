import { MAX_PDF_PAGES } from '../../shared/constants';
import { checkPageTree } from './check-page-tree';
import { useNativeDeflate } from './native-deflate';
import { appendUpdate, changedObjects, openForUpdate } from './open-for-update';
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
  const opened = await openForUpdate(bytes, { snapshot: true });
  const { doc, tail } = opened;
  checkPageTree(doc, MAX_PDF_PAGES);
  useNativeDeflate(doc.context);
  paintCovers(doc, covers);
  await doc.flush();
  if (!tail) return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  return appendUpdate({ ...opened, tail }, changedObjects(opened)).bytes;
}
