import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { findNamesBySpelling } from '../../server/pdf/sandbox/names-by-spelling';
import { makePdf } from '../helpers/pdfs';

/** A one-page PDF whose page dictionary carries `/A#20B` (the name "A B") and the plain `/Tag`, spelled in the file. */
async function pdfWithSpelledNames(): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await makePdf({ pages: 1 }));
  doc.getPage(0).node.set(PDFName.of('Spelled'), doc.context.obj({ 'A B': PDFName.of('Tag') }));
  return doc.save({ useObjectStreams: false });
}

describe("the PDF sandbox's names found by spelling", () => {
  it('finds the very name pdf-lib pools, escaped spellings decoded, also past its memory', async () => {
    const bytes = await pdfWithSpelledNames();
    expect(Buffer.from(bytes).includes('/A#20B')).toBe(true);
    const before = PDFName.of('A#20B');

    findNamesBySpelling();
    expect(PDFName.of('A#20B')).toBe(before);
    expect(PDFName.of('A#20B')).toBe(PDFName.of('A B'));
    const page = (await PDFDocument.load(bytes)).getPage(0);
    const spelled = page.node.lookup(PDFName.of('Spelled'), PDFDict);
    expect(spelled.get(PDFName.of('A B'))).toBe(PDFName.of('Tag'));
    expect(page.node.lookup(PDFName.of('Type'))).toBe(PDFName.of('Page'));

    // More spellings than it remembers: each still decodes to its one pooled name.
    for (let index = 0; index < 5_000; index += 1) PDFName.of(`N${index}#41`);
    expect(PDFName.of('N4999#41')).toBe(PDFName.of('N4999A'));
    expect(PDFName.of('N4999#41').decodeText()).toBe('N4999A');
  });
});
