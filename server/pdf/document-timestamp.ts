import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFRef } from 'pdf-lib';
import { planDss, type DssData } from './dss-objects';
import { ascii } from './incremental-update';
import { appendUpdate, openForUpdate } from './open-for-update';
import { UpdatePlan } from './update-plan';

const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

/** A PDF with an empty document timestamp appended: the token goes between `<` at `start` and `>` at `end - 1`. */
export type PreparedDocumentTimestamp = {
  bytes: Uint8Array;
  byteRange: [number, number, number, number];
  start: number;
  end: number;
  /** The field's name: the one asked for, or with " 2", " 3" … after it when the form already has that name. */
  fieldName: string;
};

/** More fields than any contract's form holds: the rest of a hostile form is not read. */
const MAX_FIELDS = 10_000;

/**
 * Appends a document timestamp's place to a signed PDF (ISO 32000-2 12.8.5; PAdES
 * ETSI.RFC3161), with the validation data of `dss` when given (PAdES B-LT, and B-LTA by the
 * timestamp over it), as ONE incremental update written object by object: the /DocTimeStamp
 * dictionary, its invisible widget, the widget appended to the last page's /Annots, the field
 * appended to the AcroForm's /Fields, the DSS. Nothing else: a page's content, resources or any
 * other entry never changes, which is all PAdES allows after a certification signature that
 * permits no change (pdf-lib's own annotation helpers would rewrite the page's /Contents).
 * The earlier bytes stay the exact prefix. The caller hashes the byte range, gets the token
 * for that digest and writes it into the gap.
 */
export async function prepareDocumentTimestamp(input: {
  bytes: Uint8Array;
  fieldName: string;
  room: number;
  dss?: DssData | undefined;
}): Promise<PreparedDocumentTimestamp> {
  const opened = await openForUpdate(input.bytes);
  const { doc, tail } = opened;
  if (!tail) throw new Error('The signed PDF has no cross-reference section to append to.');
  const { context } = doc;
  const changes = new UpdatePlan(context);

  const ref = context.nextRef();
  const contentsHexLength = input.room * 2;
  const head = '<< /Type /DocTimeStamp /Filter /Adobe.PPKLite /SubFilter /ETSI.RFC3161 ';
  const contentsAt = head.length + BYTE_RANGE_PLACEHOLDER.length + ' /Contents '.length;
  const raw = ascii(`${head}${BYTE_RANGE_PLACEHOLDER} /Contents <${'0'.repeat(contentsHexLength)}> >>`);

  const fieldName = unusedFieldName(doc, input.fieldName);
  const pageRef = doc.getPage(doc.getPageCount() - 1).ref;
  const widgetRef = context.nextRef();
  changes.add(
    widgetRef,
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFHexString.fromText(fieldName),
      V: ref,
      F: 132,
      Rect: [0, 0, 0, 0],
      P: pageRef,
    }),
  );
  changes.appendToArray(pageRef, 'Annots', widgetRef);
  const catalogRef = context.trailerInfo.Root as PDFRef;
  const acroFormRef = changes.ensureDict(catalogRef, 'AcroForm');
  changes.appendToArray(acroFormRef, 'Fields', widgetRef);
  changes.setEntry(acroFormRef, 'SigFlags', PDFNumber.of(3));
  if (input.dss) planDss(changes, catalogRef, input.dss);

  const update = appendUpdate({ ...opened, tail }, [...changes.objects(), { ref, raw }]);

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
  return { bytes: update.bytes, byteRange, start, end, fieldName };
}

/**
 * `wanted`, or `wanted 2`, `wanted 3` …: a name no field of the form has. A field's name must be
 * unique for the life of the file (ISO 32000-1 12.7.3.2): two timestamps within one second would
 * otherwise share the name their time gives, and validators call the later revisions illegal.
 */
function unusedFieldName(doc: PDFDocument, wanted: string): string {
  const taken = fieldNames(doc);
  let name = wanted;
  for (let n = 2; taken.has(name); n += 1) name = `${wanted} ${n}`;
  return name;
}

/** The fully qualified name of every field of the form (parents' names joined by periods). */
function fieldNames(doc: PDFDocument): Set<string> {
  const names = new Set<string>();
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const roots = form?.lookupMaybe(PDFName.of('Fields'), PDFArray)?.asArray() ?? [];
  const stack = roots.map((field) => ({ field, parent: '' }));
  const seen = new Set<unknown>();
  while (stack.length > 0 && seen.size < MAX_FIELDS) {
    const { field, parent } = stack.pop()!;
    const dict = doc.context.lookup(field);
    if (!(dict instanceof PDFDict) || seen.has(dict)) continue;
    seen.add(dict);
    const partial = dict.lookup(PDFName.of('T'));
    const own = partial instanceof PDFString || partial instanceof PDFHexString ? partial.decodeText() : undefined;
    const name = own === undefined ? parent : parent ? `${parent}.${own}` : own;
    if (name) names.add(name);
    const kids = dict.lookupMaybe(PDFName.of('Kids'), PDFArray)?.asArray() ?? [];
    for (const kid of kids) stack.push({ field: kid, parent: name });
  }
  return names;
}
