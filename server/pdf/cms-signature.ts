import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SigningIdentity } from '../crypto/signing-identity';
import { sha256AlgorithmIdentifier, signatureAlgorithmFor, signSha256, toArrayBuffer } from '../crypto/x509-algorithms';

const ID_DATA = '1.2.840.113549.1.7.1';
const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const ID_CONTENT_TYPE = '1.2.840.113549.1.9.3';
const ID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const ID_SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';

/** Room for the CMS in /Contents: the certificates plus a generous margin for the rest. */
export function cmsSizeEstimate(identity: SigningIdentity): number {
  const certificates = [identity.certificate, ...identity.chain].reduce((sum, cert) => sum + cert.raw.length, 0);
  return certificates + 4096;
}

/**
 * A detached CMS SignedData as PAdES baseline B-B wants it (SubFilter ETSI.CAdES.detached):
 * signed attributes content-type, message-digest and signing-certificate-v2, and no
 * signing-time (the time is the signature dictionary's /M). pkijs builds the structures;
 * node:crypto computes the signature.
 */
export function signCmsDetached(identity: SigningIdentity, contentDigest: Uint8Array): Buffer {
  const certificates = parsedCertificatesOf(identity);
  const leaf = certificates[0]!;
  const certHash = createHash('sha256').update(identity.certificate.raw).digest();

  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({ type: ID_CONTENT_TYPE, values: [new asn1js.ObjectIdentifier({ value: ID_DATA })] }),
      new pkijs.Attribute({
        type: ID_MESSAGE_DIGEST,
        values: [new asn1js.OctetString({ valueHex: toArrayBuffer(contentDigest) })],
      }),
      new pkijs.Attribute({
        type: ID_SIGNING_CERTIFICATE_V2,
        // SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { certHash } } (hash algorithm: the SHA-256 default)
        values: [
          new asn1js.Sequence({
            value: [
              new asn1js.Sequence({
                value: [
                  new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: toArrayBuffer(certHash) })] }),
                ],
              }),
            ],
          }),
        ],
      }),
    ],
  });
  // The signature covers the attributes encoded as a SET (tag 0x31), not as the [0] they travel in.
  const toBeSigned = new Uint8Array(signedAttrs.toSchema().toBER());
  toBeSigned[0] = 0x31;

  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: leaf.issuer, serialNumber: leaf.serialNumber }),
    digestAlgorithm: sha256AlgorithmIdentifier(),
    signedAttrs,
    signatureAlgorithm: signatureAlgorithmFor(identity.privateKey),
    signature: new asn1js.OctetString({ valueHex: toArrayBuffer(signSha256(identity.privateKey, toBeSigned)) }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [sha256AlgorithmIdentifier()],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: ID_DATA }),
    certificates,
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: ID_SIGNED_DATA, content: signedData.toSchema(true) });
  return Buffer.from(contentInfo.toSchema().toBER());
}

const parsedCertificates = new WeakMap<SigningIdentity, pkijs.Certificate[]>();

function parsedCertificatesOf(identity: SigningIdentity): pkijs.Certificate[] {
  let certificates = parsedCertificates.get(identity);
  if (!certificates) {
    certificates = [identity.certificate, ...identity.chain].map((cert) =>
      pkijs.Certificate.fromBER(toArrayBuffer(cert.raw)),
    );
    parsedCertificates.set(identity, certificates);
  }
  return certificates;
}
