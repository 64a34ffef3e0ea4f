import { createHash, type X509Certificate } from 'node:crypto';
import { cmsSignatureProblem, CmsReadError, digestOf, readCms } from './cms-verify';
import { readDerElement } from './der';
import { readTimestampToken } from './rfc3161';

const ID_AA_SIGNATURE_TIME_STAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';
const ID_CT_TST_INFO = '1.2.840.113549.1.9.16.1.4';
/** More signatures than any signed contract carries: the rest of a hostile file is not looked at. */
const MAX_SIGNATURES = 20;

export type InspectedCertificate = { subject: string; issuer: string; sha256: string; pem: string };

export type InspectedTimestamp = {
  /** The authority's time, ISO 8601 UTC. */
  genTime: string;
  authority: InspectedCertificate | null;
  certificates: InspectedCertificate[];
  /** Why the token does not hold (signature, certificate purpose, or it stamps other bytes); null: it holds. */
  problem: string | null;
  /** The token (CMS ContentInfo DER), for `openssl ts -verify`. */
  token: Uint8Array;
};

export type InspectedSignature = {
  byteRange: [number, number, number, number];
  /** The file as it was when signed: its first `signedLength` bytes, and their SHA-256. */
  signedLength: number;
  signedSha256: string;
  /** SHA-256 of the bytes the signature covers (its byte range, without its own /Contents). */
  signedContentSha256: string;
  /** Upper-case hex SHA-1 of its /Contents string as written, padding included: its key in a DSS's /VRI. */
  contentsSha1: string;
  /** A CMS signature (the seal), or a document timestamp (ETSI.RFC3161). */
  kind: 'signature' | 'document-timestamp' | 'unreadable';
  /** Why it does not verify over its byte range; null: it does. */
  problem: string | null;
  signer: InspectedCertificate | null;
  certificates: InspectedCertificate[];
  /** The signature timestamp in a signature's CMS, or the token of a document timestamp. */
  timestamp: InspectedTimestamp | null;
  /** A signature's value (what its signature timestamp stamps) and its CMS. */
  signatureValue: Uint8Array | null;
  cms: Uint8Array | null;
};

/**
 * A CMS signature found in a /Contents string that no sound /ByteRange frames (a file saved
 * again by another program moves the bytes and leaves /ByteRange stale): what it signed (its
 * message digest) and whether its signature over that digest holds.
 */
export type LooseSignature = { messageDigest: string; signer: InspectedCertificate | null; problem: string | null };

export type InspectedPdf = {
  size: number;
  sha256: string;
  isPdf: boolean;
  signatures: InspectedSignature[];
  loose: LooseSignature[];
};

/**
 * Every signature of a PDF, found by its /ByteRange in the raw bytes rather than through the
 * document's structure (which a later update could rewrite to hide one), each checked over its
 * own byte range: CMS signatures with their signature timestamps, and document timestamps.
 * Runs in the PDF sandbox: the file may be hostile.
 */
export function inspectSignatures(bytes: Uint8Array): InspectedPdf {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = buffer.subarray(0, 1024).toString('latin1');
  const result: InspectedPdf = {
    size: bytes.length,
    sha256: sha256(buffer),
    isPdf: head.includes('%PDF-'),
    signatures: [],
    loose: [],
  };
  if (!result.isPdf) return result;
  const text = buffer.toString('latin1');
  const seen = new Set<string>();
  for (const match of text.matchAll(/\/ByteRange\s*\[\s*(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s+(\d{1,12})\s*\]/g)) {
    const range = match.slice(1, 5).map(Number) as [number, number, number, number];
    const key = range.join(' ');
    if (seen.has(key) || !isSaneRange(buffer, range)) continue;
    seen.add(key);
    result.signatures.push(inspectOne(buffer, range));
    if (result.signatures.length >= MAX_SIGNATURES) break;
  }
  result.signatures.sort((a, b) => a.signedLength - b.signedLength);
  if (result.signatures.every((signature) => signature.kind !== 'signature' || signature.problem !== null))
    result.loose = looseSignatures(text);
  return result;
}

/** CMS signatures in /Contents strings, read whatever /ByteRange says (at most MAX_SIGNATURES). */
function looseSignatures(text: string): LooseSignature[] {
  const found: LooseSignature[] = [];
  for (const match of text.matchAll(/\/Contents\s*<([0-9A-Fa-f\s]{512,})>/g)) {
    try {
      const padded = Buffer.from(match[1]!.replace(/\s+/g, ''), 'hex');
      const cms = readCms(padded.subarray(0, readDerElement(padded, 0).end));
      if (cms.eContentType === ID_CT_TST_INFO || !cms.messageDigest) continue;
      found.push({
        messageDigest: cms.messageDigest.toString('hex'),
        signer: cms.signer ? describe(cms.signer) : null,
        problem: cmsSignatureProblem(cms, cms.messageDigest) ?? null,
      });
    } catch {
      // Not a signature we can read: nothing to say about it.
    }
    if (found.length >= MAX_SIGNATURES) break;
  }
  return found;
}

function isSaneRange(bytes: Buffer, [a, b, c, d]: [number, number, number, number]): boolean {
  return a === 0 && b > 0 && c > b + 1 && c + d <= bytes.length && bytes[b] === 0x3c && bytes[c - 1] === 0x3e;
}

function inspectOne(bytes: Buffer, range: [number, number, number, number]): InspectedSignature {
  const [, b, c, d] = range;
  const signedLength = c + d;
  const base: InspectedSignature = {
    byteRange: range,
    signedLength,
    signedSha256: sha256(bytes.subarray(0, signedLength)),
    signedContentSha256: createHash('sha256')
      .update(bytes.subarray(0, b))
      .update(bytes.subarray(c, signedLength))
      .digest('hex'),
    contentsSha1: '',
    kind: 'unreadable',
    problem: null,
    signer: null,
    certificates: [],
    timestamp: null,
    signatureValue: null,
    cms: null,
  };
  const signed = [bytes.subarray(0, b), bytes.subarray(c, signedLength)];
  const padded = Buffer.from(
    bytes
      .subarray(b + 1, c - 1)
      .toString('latin1')
      .replace(/\s+/g, ''),
    'hex',
  );
  base.contentsSha1 = createHash('sha1').update(padded).digest('hex').toUpperCase();
  try {
    const der = padded.subarray(0, readDerElement(padded, 0).end);
    const cms = readCms(der);
    base.cms = der;
    base.certificates = cms.certificates.map(describe);
    if (cms.eContentType === ID_CT_TST_INFO) {
      const token = readTimestampToken(der);
      const digest = digestOf({ digest: token.imprintDigest }, ...signed);
      base.kind = 'document-timestamp';
      base.timestamp = timestampOf(token, digest);
      base.signer = base.timestamp.authority;
      base.problem = base.timestamp.problem;
      return base;
    }
    base.kind = 'signature';
    base.signer = cms.signer ? describe(cms.signer) : null;
    base.problem = cmsSignatureProblem(cms, digestOf(cms, ...signed)) ?? null;
    base.signatureValue = cms.signature;
    const tokenDer = cms.unsignedAttributes.get(ID_AA_SIGNATURE_TIME_STAMP_TOKEN)?.[0];
    if (tokenDer) {
      const token = readTimestampToken(tokenDer);
      base.timestamp = timestampOf(token, digestOf({ digest: token.imprintDigest }, cms.signature));
    }
  } catch (error) {
    base.problem = error instanceof CmsReadError || error instanceof Error ? error.message : String(error);
  }
  return base;
}

function timestampOf(token: ReturnType<typeof readTimestampToken>, expectedImprint: Buffer): InspectedTimestamp {
  const problem =
    token.problem ?? (token.imprint.equals(expectedImprint) ? null : 'the timestamp stamps other bytes than these');
  return {
    genTime: token.token.genTime.toISOString(),
    authority: token.cms.signer ? describe(token.cms.signer) : null,
    certificates: token.token.certificates.map(describe),
    problem,
    token: token.token.der,
  };
}

function describe(cert: X509Certificate): InspectedCertificate {
  return {
    subject: cert.subject.replaceAll('\n', ', '),
    issuer: cert.issuer.replaceAll('\n', ', '),
    sha256: cert.fingerprint256.replaceAll(':', '').toLowerCase(),
    pem: cert.toString(),
  };
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
