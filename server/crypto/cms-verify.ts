import { constants, createHash, verify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from './x509-algorithms';

const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const ID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const ID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const RSASSA_PSS = '1.2.840.113549.1.1.10';

/** Digest OIDs a signature may use, by node:crypto's names. */
const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export const digestNameOf = (oid: string): string | undefined => DIGESTS[oid];

/** What a CMS SignedData (one signer) says, read but not yet trusted. */
export type CmsInfo = {
  eContentType: string;
  /** The encapsulated content (a timestamp token's TSTInfo); absent for a detached signature. */
  eContent: Buffer | undefined;
  certificates: X509Certificate[];
  /** The certificate the signer info names, if the CMS carries it. */
  signer: X509Certificate | undefined;
  /** node:crypto's name of the signer's digest algorithm (undefined: one we do not know). */
  digest: string | undefined;
  messageDigest: Buffer | undefined;
  signingTime: Date | undefined;
  /** The signed attributes as signed (DER SET), and the signature over them. */
  signedAttributes: Buffer | undefined;
  signature: Buffer;
  signatureAlgorithm: string;
  /** Unsigned attributes by type: each value's DER. */
  unsignedAttributes: Map<string, Buffer[]>;
};

export class CmsReadError extends Error {
  override name = 'CmsReadError';
}

/** Reads a DER ContentInfo holding a SignedData with one signer. Throws CmsReadError for anything else. */
export function readCms(der: Uint8Array): CmsInfo {
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(toArrayBuffer(der));
    if (contentInfo.contentType !== ID_SIGNED_DATA) throw new CmsReadError('the signature is not a CMS SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch (error) {
    if (error instanceof CmsReadError) throw error;
    throw new CmsReadError(
      `the signature cannot be read as CMS (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo || signedData.signerInfos.length !== 1)
    throw new CmsReadError('the signature does not have exactly one signer');
  const parsed = (signedData.certificates ?? []).filter(
    (cert): cert is pkijs.Certificate => cert instanceof pkijs.Certificate,
  );
  const certificates = parsed.map((cert) => new X509Certificate(Buffer.from(cert.toSchema().toBER())));
  const sid = signerInfo.sid;
  const signerIndex =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? parsed.findIndex((cert) => cert.issuer.isEqual(sid.issuer) && cert.serialNumber.isEqual(sid.serialNumber))
      : -1;

  const attributes = signerInfo.signedAttrs?.attributes ?? [];
  const valueOf = (type: string) => attributes.find((attribute) => attribute.type === type)?.values[0];
  const digestValue = valueOf(ID_MESSAGE_DIGEST);
  const timeValue = valueOf(ID_SIGNING_TIME);
  const unsignedAttributes = new Map<string, Buffer[]>();
  for (const attribute of signerInfo.unsignedAttrs?.attributes ?? []) {
    unsignedAttributes.set(
      attribute.type,
      attribute.values.map((value: asn1js.AsnType) => Buffer.from(value.toBER())),
    );
  }
  const eContent = signedData.encapContentInfo.eContent;
  return {
    eContentType: signedData.encapContentInfo.eContentType,
    eContent: eContent ? Buffer.from(eContent.getValue()) : undefined,
    certificates,
    signer: signerIndex >= 0 ? certificates[signerIndex] : undefined,
    digest: digestNameOf(signerInfo.digestAlgorithm.algorithmId),
    messageDigest:
      digestValue instanceof asn1js.OctetString ? Buffer.from(digestValue.valueBlock.valueHexView) : undefined,
    signingTime:
      timeValue instanceof asn1js.UTCTime || timeValue instanceof asn1js.GeneralizedTime
        ? timeValue.toDate()
        : undefined,
    signedAttributes: signerInfo.signedAttrs ? Buffer.from(signerInfo.signedAttrs.encodedValue) : undefined,
    signature: Buffer.from(signerInfo.signature.valueBlock.valueHexView),
    signatureAlgorithm: signerInfo.signatureAlgorithm.algorithmId,
    unsignedAttributes,
  };
}

/**
 * Whether the signer's signature is right: the message-digest attribute equals the digest of
 * the signed content (`contentDigest`, made with `info.digest`), and the signature over the
 * signed attributes verifies with the signer certificate's key. Returns why not, or undefined.
 */
export function cmsSignatureProblem(info: CmsInfo, contentDigest: Uint8Array): string | undefined {
  if (!info.signer) return 'the signer certificate is not in the signature';
  if (!info.digest) return 'the signature uses a digest algorithm this appliance does not know';
  if (!info.signedAttributes || !info.messageDigest) return 'the signature has no signed attributes';
  if (!Buffer.from(contentDigest).equals(info.messageDigest))
    return 'the signed bytes do not match the signature (they were changed)';
  const key = info.signer.publicKey;
  const isPss = info.signatureAlgorithm === RSASSA_PSS;
  const options =
    key.asymmetricKeyType === 'ec'
      ? { key, dsaEncoding: 'der' as const }
      : isPss
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_AUTO }
        : { key };
  try {
    return verify(info.digest, info.signedAttributes, options, info.signature)
      ? undefined
      : 'the signature does not verify with its certificate';
  } catch (error) {
    return `the signature cannot be checked (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The digest of `parts` with the signer's algorithm (what `cmsSignatureProblem` compares). */
export function digestOf(info: Pick<CmsInfo, 'digest'>, ...parts: Uint8Array[]): Buffer {
  const hash = createHash(info.digest ?? 'sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
}
