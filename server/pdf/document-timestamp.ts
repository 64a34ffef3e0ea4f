import { ParseSpeeds, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber } from 'pdf-lib';
import { trailerOf } from './build-signed-pdf';
import { ascii, collectUpdateObjects, snapshotObjects, writeIncrementalUpdate } from './incremental-update';
import { readPdfTail } from './read-pdf-tail';

const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

/** A PDF with an empty document timestamp appended: the token goes between `<` at `start` and `>` at `end - 1`. */
export type PreparedDocumentTimestamp = {
  bytes: Uint8Array;
  byteRange: [number, number, number, number];
  start: number;
  end: number;
};

/**
 * Appends a document timestamp's place to a signed PDF (ISO 32000-2 12.8.5; PAdES
 * ETSI.RFC3161): one incremental update with the /DocTimeStamp dictionary, its invisible field
 * on the last page and the AcroForm entry, its /ByteRange filled and its /Contents zeros of
 * `room` bytes. The earlier bytes stay the exact prefix. The caller hashes the byte range,
 * gets the token for that digest and writes it into the gap.
 */
export async function prepareDocumentTimestamp(input: {
  bytes: Uint8Array;
  fieldName: string;
  room: number;
}): Promise<PreparedDocumentTimestamp> {
  const { bytes } = input;
  const tail = readPdfTail(bytes);
  if (!tail) throw new Error('The signed PDF has no cross-reference section to append to.');
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const { context, catalog } = doc;
  context.largestObjectNumber = Math.max(context.largestObjectNumber, tail.size - 1);
  const snapshot = snapshotObjects(context);

  const ref = context.nextRef();
  const contentsHexLength = input.room * 2;
  const head = '<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ';
  const contentsAt = head.length + BYTE_RANGE_PLACEHOLDER.length + ' /Contents '.length;
  const raw = ascii(`${head}${BYTE_RANGE_PLACEHOLDER} /Contents <${'0'.repeat(contentsHexLength)}> >>`);

  const page = doc.getPage(doc.getPageCount() - 1);
  const field = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFHexString.fromText(input.fieldName),
      V: ref,
      F: 132,
      Rect: [0, 0, 0, 0],
      P: page.ref,
    }),
  );
  page.node.addAnnot(field);
  const acroForm = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict) ?? context.obj({});
  const fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray) ?? context.obj([]);
  fields.push(field);
  if (!acroForm.has(PDFName.of('Fields'))) acroForm.set(PDFName.of('Fields'), fields);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (!catalog.has(PDFName.of('AcroForm'))) catalog.set(PDFName.of('AcroForm'), acroForm);

  const objects = [...collectUpdateObjects(context, snapshot), { ref, raw }];
  const xrefStreamRef = tail.kind === 'stream' ? context.nextRef() : undefined;
  const update = writeIncrementalUpdate(bytes, tail, objects, trailerOf(doc, tail.size), xrefStreamRef);

  const objectAt = update.offsets.get(ref);
  if (objectAt === undefined) throw new Error('The document timestamp dictionary was not written.');
  const rawAt = objectAt + `${ref.objectNumber} ${ref.generationNumber} obj\n`.length;
  const start = rawAt + contentsAt;
  const end = start + contentsHexLength + 2;
  const byteRange: [number, number, number, number] = [0, start, end, update.bytes.length - end];
  update.bytes.write(
    `/ByteRange [${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' '),
    rawAt + head.length,
    'latin1',
  );
  return { bytes: update.bytes, byteRange, start, end };
}
