import { randomBytes, type X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { cmsSignatureProblem, digestNameOf, digestOf, readCms, type CmsInfo } from './cms-verify';
import { readDerElement, derChildren } from './der';
import { sha256AlgorithmIdentifier, toArrayBuffer } from './x509-algorithms';

const ID_CT_TST_INFO = '1.2.840.113549.1.9.16.1.4';
const ID_KP_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

/** What a timestamp token says, once its signature and its imprint have been checked. */
export type TimestampToken = {
  /** The token (a CMS ContentInfo), DER: what a PDF or a CMS attribute carries. */
  der: Buffer;
  genTime: Date;
  /** The authority's signing certificate, then any others the token carries. */
  certificates: X509Certificate[];
  signer: X509Certificate;
  serialNumber: string;
  policy: string;
};

/** The authority refused, or its answer is not a timestamp of what we asked for. */
export class TimestampRefused extends Error {
  override name = 'TimestampRefused';
}

/** A TimeStampReq (RFC 3161 section 2.4.1) for a SHA-256 digest: with a nonce, asking for the certificate. */
export function makeTimestampQuery(digest: Uint8Array): { der: Buffer; nonce: Buffer } {
  const nonce = randomBytes(8);
  // A positive INTEGER in its shortest encoding: a first byte of 0 (1 query in 256 before this)
  // is padding that DER forbids, and OpenSSL's authority refuses the query as "illegal padding".
  nonce[0] = (nonce[0]! & 0x3f) | 0x40;
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: sha256AlgorithmIdentifier(),
      hashedMessage: new asn1js.OctetString({ valueHex: toArrayBuffer(digest) }),
    }),
    nonce: new asn1js.Integer({ valueHex: toArrayBuffer(nonce) }),
    certReq: true,
  });
  return { der: Buffer.from(request.toSchema().toBER()), nonce };
}

const STATUS_TEXT = [
  'granted',
  'granted with modifications',
  'rejection',
  'waiting',
  'revocation warning',
  'revocation notification',
];

/**
 * The token in an authority's TimeStampResp, checked against the query: status granted, a
 * TSTInfo over our digest with our nonce, signed by a certificate meant for timestamping.
 */
export function readTimestampReply(reply: Uint8Array, digest: Uint8Array, nonce: Uint8Array): TimestampToken {
  let tokenDer: Buffer;
  try {
    const outer = readDerElement(reply, 0);
    const [statusInfo, token] = derChildren(reply, outer);
    const status = statusInfo ? derChildren(reply, statusInfo)[0] : undefined;
    const code = status ? reply[status.end - 1]! : -1;
    if (code !== 0 && code !== 1)
      throw new TimestampRefused(`the timestamp authority refused: ${STATUS_TEXT[code] ?? 'no status'}`);
    if (!token) throw new TimestampRefused('the timestamp authority answered without a token');
    tokenDer = Buffer.from(reply.subarray(token.start, token.end));
  } catch (error) {
    if (error instanceof TimestampRefused) throw error;
    throw new TimestampRefused(
      `the timestamp authority's answer is not a timestamp reply (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const token = readTimestampToken(tokenDer);
  if (token.problem) throw new TimestampRefused(`the timestamp authority's token is not valid: ${token.problem}`);
  if (!token.imprint.equals(Buffer.from(digest)))
    throw new TimestampRefused('the timestamp authority stamped something else than what was asked');
  if (!token.nonce || !token.nonce.equals(stripLeadingZeros(Buffer.from(nonce))))
    throw new TimestampRefused('the timestamp reply does not carry our nonce (a replayed answer?)');
  return token.token;
}

const stripLeadingZeros = (bytes: Buffer) => {
  let at = 0;
  while (at < bytes.length - 1 && bytes[at] === 0) at += 1;
  return bytes.subarray(at);
};

export type ReadToken = {
  token: TimestampToken;
  /** The digest the token stamps (messageImprint), and its algorithm. */
  imprint: Buffer;
  imprintDigest: string | undefined;
  nonce: Buffer | undefined;
  /** Why the token's own signature or certificate is not right; undefined when it is. */
  problem: string | undefined;
  cms: CmsInfo;
};

/** Reads a timestamp token (a CMS over a TSTInfo) and checks its signature and its certificate's purpose. */
export function readTimestampToken(der: Buffer): ReadToken {
  const cms = readCms(der);
  if (cms.eContentType !== ID_CT_TST_INFO || !cms.eContent)
    throw new TimestampRefused('the token does not hold a TSTInfo');
  const info = pkijs.TSTInfo.fromBER(toArrayBuffer(cms.eContent));
  let problem = cmsSignatureProblem(cms, digestOf(cms, cms.eContent));
  const signer = cms.signer;
  if (!problem && signer && !hasTimestampingPurpose(signer))
    problem = 'its certificate is not meant for timestamping (extended key usage)';
  return {
    token: {
      der,
      genTime: info.genTime,
      certificates: signer ? [signer, ...cms.certificates.filter((cert) => cert !== signer)] : cms.certificates,
      signer: signer ?? cms.certificates[0]!,
      serialNumber: Buffer.from(info.serialNumber.valueBlock.valueHexView).toString('hex'),
      policy: info.policy,
    },
    imprint: Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView),
    imprintDigest: digestNameOf(info.messageImprint.hashAlgorithm.algorithmId),
    nonce: info.nonce ? stripLeadingZeros(Buffer.from(info.nonce.valueBlock.valueHexView)) : undefined,
    problem,
    cms,
  };
}

function hasTimestampingPurpose(cert: X509Certificate): boolean {
  return (cert.keyUsage ?? []).includes(ID_KP_TIME_STAMPING);
}
