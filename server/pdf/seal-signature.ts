import { createHash, type Hash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFString,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from 'pdf-lib';
import type { SigningIdentity } from '../crypto/signing-identity';
import { cmsSizeEstimate, signCmsDetached } from './cms-signature';
import { ascii, serialize, type WrittenUpdate } from './incremental-update';

/** The signature dictionary, written by hand so that we know where /ByteRange and /Contents sit. */
export type SealPlan = {
  ref: PDFRef;
  raw: Uint8Array;
  byteRangeAt: number;
  byteRangeWidth: number;
  contentsAt: number;
  contentsHexLength: number;
};

const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

/**
 * Adds the seal to the document: the signature dictionary (PAdES, ETSI.CAdES.detached), an
 * invisible signature field on `page`, the AcroForm entry and, when the document carries no
 * signature yet, a DocMDP certification that permits no change at all (P 1).
 */
export function prepareSeal(
  doc: PDFDocument,
  identity: SigningIdentity,
  page: PDFPage,
  options: { time: Date; reason: string; name: string; extraRoom?: number },
): SealPlan {
  const { context, catalog } = doc;
  const ref = context.nextRef();
  const acroForm = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict) ?? context.obj({});
  const fieldsValue = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray) ?? context.obj([]);
  const isFirstSignature = !hasSignedField(doc, fieldsValue) && !catalog.has(PDFName.of('Perms'));

  const dict = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'ETSI.CAdES.detached',
    M: PDFString.fromDate(options.time),
    Name: PDFHexString.fromText(options.name),
    Reason: PDFHexString.fromText(options.reason),
    Prop_Build: { App: { Name: 'SignDesk' } },
  });
  if (isFirstSignature) {
    dict.set(
      PDFName.of('Reference'),
      context.obj([
        { Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: { Type: 'TransformParams', P: 1, V: '1.2' } },
      ]),
    );
    catalog.set(PDFName.of('Perms'), context.obj({ DocMDP: ref }));
  }

  const field = context.register(
    context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      T: PDFHexString.fromText(sealFieldName(options.time)),
      V: ref,
      F: 132,
      Rect: [0, 0, 0, 0],
      P: page.ref,
    }),
  );
  page.node.addAnnot(field);
  fieldsValue.push(field);
  // An existing (possibly indirect) /Fields or /AcroForm is changed in place, a missing one added.
  if (!acroForm.has(PDFName.of('Fields'))) acroForm.set(PDFName.of('Fields'), fieldsValue);
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  if (!catalog.has(PDFName.of('AcroForm'))) catalog.set(PDFName.of('AcroForm'), acroForm);

  const contentsHexLength = (cmsSizeEstimate(identity) + (options.extraRoom ?? 0)) * 2;
  const head = Buffer.from(serialize(dict))
    .toString('latin1')
    .replace(/>>\s*$/, '');
  const byteRangeAt = head.length;
  const contentsAt = byteRangeAt + BYTE_RANGE_PLACEHOLDER.length + '\n/Contents '.length;
  const raw = ascii(`${head}${BYTE_RANGE_PLACEHOLDER}\n/Contents <${'0'.repeat(contentsHexLength)}>\n>>`);
  return { ref, raw, byteRangeAt, byteRangeWidth: BYTE_RANGE_PLACEHOLDER.length, contentsAt, contentsHexLength };
}

/** Fills /ByteRange, hashes everything but the /Contents hex string, signs it and writes the CMS in. */
export function fillSeal(
  update: WrittenUpdate,
  plan: SealPlan,
  identity: SigningIdentity,
  hashedPrefix?: { prefix: number; hash: Hash },
): Buffer {
  const { bytes } = update;
  const objectAt = update.offsets.get(plan.ref);
  if (objectAt === undefined) throw new Error('The signature dictionary was not written.');
  const rawAt = objectAt + `${plan.ref.objectNumber} ${plan.ref.generationNumber} obj\n`.length;
  const gapStart = rawAt + plan.contentsAt;
  const gapEnd = gapStart + plan.contentsHexLength + 2;
  const byteRange = `/ByteRange [0 ${gapStart} ${gapEnd} ${bytes.length - gapEnd}]`.padEnd(plan.byteRangeWidth, ' ');
  bytes.write(byteRange, rawAt + plan.byteRangeAt, 'latin1');

  // The caller may have hashed the original (the first `prefix` bytes) already.
  const from = hashedPrefix && hashedPrefix.prefix <= gapStart ? hashedPrefix.prefix : 0;
  const hash = from > 0 ? hashedPrefix!.hash : createHash('sha256');
  const digest = hash.update(bytes.subarray(from, gapStart)).update(bytes.subarray(gapEnd)).digest();
  const cms = signCmsDetached(identity, digest);
  if (cms.length * 2 > plan.contentsHexLength)
    throw new Error(`The signature (${cms.length} bytes) does not fit its placeholder.`);
  bytes.write(cms.toString('hex').toUpperCase(), gapStart + 1, 'latin1');
  return bytes;
}

/** A field name without a period: ISO 32000-1 (12.7.3.2) forbids one in a partial field name. */
export function sealFieldName(time: Date): string {
  return `SignDesk seal ${time.toISOString().replace(/\.\d+Z$/, 'Z')}`;
}

function hasSignedField(doc: PDFDocument, fields: PDFArray): boolean {
  for (let index = 0; index < fields.size(); index += 1) {
    const field = doc.context.lookupMaybe(fields.get(index), PDFDict);
    if (field?.get(PDFName.of('FT')) === PDFName.of('Sig') && field.get(PDFName.of('V'))) return true;
  }
  return false;
}
