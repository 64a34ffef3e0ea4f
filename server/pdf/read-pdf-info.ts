import { PDFArray, PDFDocument, PDFName, PDFRef, type PDFPage } from 'pdf-lib';
import { checkPageTree } from './check-page-tree';
import { IN_ONE_GO } from './in-one-go';
import { unpackEveryStream } from './sandbox/inflate-budget';
import { PdfReadError, type PageSize } from './pdf-read-error';

/** PDF user space ends at 14,400 units (200 inches); anything larger is a broken box. */
const MAX_PAGE_EDGE = 14_400;
const HEADER_WINDOW = 1_024;

function checkEnvelope(bytes: Buffer): void {
  const header = bytes.indexOf('%PDF-');
  if (header === -1 || header > HEADER_WINDOW) {
    throw new PdfReadError('not-pdf', 'The body is not a PDF: it does not start with a %PDF- header.');
  }
  // A file cut short loses its trailer first; pdf-lib would otherwise rebuild what it can.
  const startXref = bytes.lastIndexOf('startxref');
  if (startXref === -1 || bytes.indexOf('%%EOF', startXref) === -1) {
    throw new PdfReadError('damaged', 'The PDF is cut short or damaged: it has no trailer (startxref … %%EOF).');
  }
}

async function isEncrypted(bytes: Uint8Array): Promise<boolean> {
  try {
    const lenient = await PDFDocument.load(bytes, { ...IN_ONE_GO, ignoreEncryption: true });
    return lenient.isEncrypted;
  } catch {
    return false;
  }
}

function hasMissingContents(page: PDFPage): boolean {
  const contents = page.node.get(PDFName.of('Contents'));
  const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
  return refs.some((ref) => ref instanceof PDFRef && page.doc.context.lookup(ref) === undefined);
}

function displayedSize(page: PDFPage): PageSize {
  const box = page.getCropBox();
  const width = Math.abs(box.width);
  const height = Math.abs(box.height);
  const quarterTurns = Math.round((((page.getRotation().angle % 360) + 360) % 360) / 90);
  const size: PageSize = quarterTurns % 2 === 1 ? [height, width] : [width, height];
  return [Math.round(size[0] * 1000) / 1000, Math.round(size[1] * 1000) / 1000];
}

/**
 * Parses an uploaded PDF completely enough to sign it: a real PDF, whole, not encrypted,
 * with between 1 and `maxPages` pages of sane size. Returns each page's displayed size.
 */
export async function readPdfInfo(bytes: Uint8Array, maxPages: number): Promise<{ pageSizes: PageSize[] }> {
  checkEnvelope(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ...IN_ONE_GO, throwOnInvalidObject: true });
  } catch (error) {
    if (error instanceof PdfReadError) throw error;
    if (await isEncrypted(bytes)) {
      throw new PdfReadError(
        'encrypted',
        'The PDF is encrypted (password-protected); remove the protection and upload it again.',
      );
    }
    const reason = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : 'unreadable';
    throw new PdfReadError('damaged', `The PDF is damaged and cannot be read (${reason}).`);
  }
  checkPageTree(doc, maxPages);
  unpackEveryStream(doc.context);
  let pages: PDFPage[];
  try {
    pages = doc.getPages();
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) : 'unreadable';
    throw new PdfReadError('damaged', `The PDF's pages cannot be read (${reason}).`);
  }
  if (pages.length === 0) throw new PdfReadError('no-pages', 'The PDF has no pages.');
  if (pages.length > maxPages) {
    throw new PdfReadError('too-many-pages', `The PDF has ${pages.length} pages; at most ${maxPages} can be signed.`);
  }
  return {
    pageSizes: pages.map((page, index) => {
      const size = displayedSize(page);
      if (!size.every((edge) => Number.isFinite(edge) && edge > 0 && edge <= MAX_PAGE_EDGE)) {
        throw new PdfReadError('damaged', `Page ${index + 1} of the PDF has no usable size.`);
      }
      if (hasMissingContents(page)) {
        throw new PdfReadError('damaged', `Page ${index + 1} of the PDF refers to content that is not in the file.`);
      }
      return size;
    }),
  };
}
