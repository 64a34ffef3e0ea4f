import * as asn1js from 'asn1js';
import { derChildren, derWrap, readDerElement, type DerElement } from '../../crypto/der';

const ID_AA_SIGNATURE_TIME_STAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

/** Where a signature's /Contents hex string sits: between `<` at `start` and `>` at `end - 1`. */
export type ContentsGap = { byteRange: [number, number, number, number]; start: number; end: number };

/**
 * The /ByteRange of the last signature in the file: for a PDF this appliance has just sealed,
 * its seal (the signature dictionary is in the last update, and its /ByteRange ends at the
 * end of the file).
 */
export function lastSignatureGap(pdf: Uint8Array): ContentsGap {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const at = text.lastIndexOf('/ByteRange');
  const match =
    at >= 0 ? /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at, at + 100)) : null;
  if (!match) throw new Error('The PDF has no signature /ByteRange.');
  const byteRange = match.slice(1, 5).map(Number) as [number, number, number, number];
  const [, start, end] = byteRange;
  if (pdf[start] !== 0x3c || pdf[end - 1] !== 0x3e)
    throw new Error('The signature /ByteRange does not frame its /Contents.');
  return { byteRange, start, end };
}

/** The CMS in a signature's /Contents (its DER, without the zero padding after it). */
export function cmsInGap(pdf: Uint8Array, gap: ContentsGap): Buffer {
  const hex = Buffer.from(pdf.subarray(gap.start + 1, gap.end - 1)).toString('latin1');
  const padded = Buffer.from(hex, 'hex');
  return padded.subarray(0, readDerElement(padded, 0).end);
}

/** The signer info of a CMS ContentInfo built like ours: always the last element at every level. */
export function signerInfoPath(cms: Uint8Array): DerElement[] {
  const contentInfo = readDerElement(cms, 0);
  const explicit = derChildren(cms, contentInfo).at(-1)!;
  const signedData = derChildren(cms, explicit).at(-1)!;
  const signerInfos = derChildren(cms, signedData).at(-1)!;
  const signerInfo = derChildren(cms, signerInfos).at(-1)!;
  return [contentInfo, explicit, signedData, signerInfos, signerInfo];
}

/** The signature value of the seal: what a signature timestamp stamps (RFC 3161 appendix A). */
export function signatureValueOf(cms: Uint8Array): Buffer {
  const signerInfo = signerInfoPath(cms).at(-1)!;
  const signature = derChildren(cms, signerInfo).at(-1)!;
  if (signature.tag !== 0x04) throw new Error('The seal already has unsigned attributes.');
  return Buffer.from(cms.subarray(signature.start + signature.headerLength, signature.end));
}

/**
 * The CMS with the timestamp token added as the unsigned attribute
 * id-aa-signatureTimeStampToken (PAdES B-T). The signer info is the last element of every
 * level above it, so the new attribute goes at the very end and every byte before it stays as
 * signed; only the lengths of the enclosing elements grow.
 */
export function addSignatureTimestamp(cms: Uint8Array, token: Uint8Array): Buffer {
  signatureValueOf(cms);
  const type = Buffer.from(new asn1js.ObjectIdentifier({ value: ID_AA_SIGNATURE_TIME_STAMP_TOKEN }).toBER());
  // unsignedAttrs [1] IMPLICIT SET OF Attribute { type, values SET { token } }
  const unsignedAttrs = derWrap(0xa1, derWrap(0x30, Buffer.concat([type, derWrap(0x31, token)])));
  const path = signerInfoPath(cms);
  let inner: Buffer = Buffer.concat([
    cms.subarray(path.at(-1)!.start + path.at(-1)!.headerLength, path.at(-1)!.end),
    unsignedAttrs,
  ]);
  for (let level = path.length - 1; level >= 0; level -= 1) {
    const element = path[level]!;
    const child = path[level + 1];
    const before = child ? cms.subarray(element.start + element.headerLength, child.start) : Buffer.alloc(0);
    inner = derWrap(element.tag, child ? Buffer.concat([before, inner]) : inner);
  }
  return inner;
}

/**
 * The sealed PDF with the token in its seal: the same bytes but for the /Contents hex string,
 * so the byte range and its signature are untouched. Throws when the token does not fit.
 */
export function embedSignatureTimestamp(pdf: Uint8Array, token: Uint8Array): Buffer {
  const gap = lastSignatureGap(pdf);
  const cms = addSignatureTimestamp(cmsInGap(pdf, gap), token);
  const room = gap.end - gap.start - 2;
  if (cms.length * 2 > room)
    throw new Error(`The timestamp token does not fit the seal's room (${cms.length} of ${room / 2} bytes).`);
  const out = Buffer.from(pdf);
  out.write(cms.toString('hex').toUpperCase().padEnd(room, '0'), gap.start + 1, 'latin1');
  return out;
}
