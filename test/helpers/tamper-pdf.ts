import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  rgb,
  StandardFonts,
} from 'pdf-lib';
import { ascii } from '../../server/pdf/incremental-update';
import { appendUpdate, changedObjects, openForUpdate } from '../../server/pdf/open-for-update';
import { readPdfTail } from '../../server/pdf/read-pdf-tail';

/**
 * Changes made to a sealed PDF the way an attacker (or a careless tool) would: each is a
 * well-formed incremental update, so the seal's byte range still verifies and only the judgement
 * of what the update changed can tell them from a legitimate document timestamp.
 */
async function update(sealed: Buffer, change: (doc: PDFDocument) => Promise<void> | void): Promise<Buffer> {
  const opened = await openForUpdate(sealed, { snapshot: true });
  await change(opened.doc);
  await opened.doc.flush();
  return appendUpdate({ ...opened, tail: opened.tail! }, changedObjects(opened)).bytes;
}

/** "RENT WAIVED: 0 SEK" drawn on the first page (its content stream changes). */
export function stampRentWaived(sealed: Buffer): Promise<Buffer> {
  return update(sealed, async (doc) => {
    const font = await doc.embedFont(StandardFonts.HelveticaBold);
    doc.getPage(0).drawText('RENT WAIVED: 0 SEK', { x: 60, y: 400, size: 28, font, color: rgb(0.8, 0, 0) });
  });
}

/** An empty signature field added (as `pyhanko sign addfields` does): it invites a second signature. */
export function addEmptySignatureField(sealed: Buffer): Promise<Buffer> {
  return update(sealed, (doc) => {
    const page = doc.getPage(0);
    const field = doc.context.register(
      doc.context.obj({
        Type: 'Annot',
        Subtype: 'Widget',
        FT: 'Sig',
        T: PDFHexString.fromText('Second signature'),
        F: 4,
        Rect: [50, 50, 250, 100],
        P: page.ref,
      }),
    );
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (annots) annots.push(field);
    else page.node.set(PDFName.of('Annots'), doc.context.obj([field]));
    const form = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
    form.lookup(PDFName.of('Fields'), PDFArray).push(field);
  });
}

/** The seal's own widget moved onto the page (an existing annotation changed). */
export function moveSealWidget(sealed: Buffer): Promise<Buffer> {
  return update(sealed, (doc) => {
    const form = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
    const seal = form.lookup(PDFName.of('Fields'), PDFArray).get(0) as PDFRef;
    doc.context.lookup(seal, PDFDict).set(PDFName.of('Rect'), doc.context.obj([10, 10, 300, 60]));
    doc.context.lookup(seal, PDFDict).set(PDFName.of('F'), PDFNumber.of(4));
  });
}

/**
 * An update whose body holds a second copy of the catalog that its cross-reference section does
 * not point at: lenient readers that take the last object in the file would see it.
 */
export function shadowCatalog(sealed: Buffer): Buffer {
  const tail = readPdfTail(sealed)!;
  const root = /\/Root\s+(\d+)\s+(\d+)\s+R/.exec(sealed.subarray(tail.startxref).toString('latin1'))!;
  const shadow = ascii(`\n${root[1]} ${root[2]} obj\n<< /Type /Catalog /Pages 1 0 R /OpenAction 99 0 R >>\nendobj\n`);
  return Buffer.concat([sealed, shadow, ascii(`startxref\n${tail.startxref}\n%%EOF\n`)]);
}

/**
 * The review's "DSS shadow rewrite" (2026-12-07, F1), on a file that has a DSS: one update lists
 * page 1's content stream under /DSS /Certs (harmless by itself), the next rewrites that stream
 * so that a white box hides the page's text. Each update changes one thing, and the second
 * changes an object the DSS lists.
 */
export async function rewriteDssListedPage(extended: Buffer): Promise<{ listed: Buffer; rewritten: Buffer }> {
  const firstContent = (doc: PDFDocument): PDFRef => {
    const contents = doc.getPage(0).node.get(PDFName.of('Contents'));
    if (contents instanceof PDFRef && doc.context.lookup(contents) instanceof PDFRawStream) return contents;
    const list = doc.context.lookup(contents, PDFArray);
    return list.get(0) as PDFRef;
  };
  const listed = await update(extended, (doc) => {
    const dss = doc.catalog.lookup(PDFName.of('DSS'), PDFDict);
    dss.lookup(PDFName.of('Certs'), PDFArray).push(firstContent(doc));
  });
  const rewritten = await update(listed, (doc) => {
    const ref = firstContent(doc);
    const old = doc.context.lookup(ref) as PDFRawStream;
    const text = Buffer.from(decodePDFRawStream(old).decode()).toString('latin1');
    doc.context.assign(ref, doc.context.flateStream(`${text}\nq 1 1 1 rg 0 0 2000 2000 re f Q\n`));
  });
  return { listed, rewritten };
}
