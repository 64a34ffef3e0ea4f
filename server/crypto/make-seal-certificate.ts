import { createHash, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { signatureAlgorithmFor, signSha256, toArrayBuffer } from './x509-algorithms';

const COMMON_NAME_OID = '2.5.4.3';
const ORGANIZATION_OID = '2.5.4.10';

export type SealKeyAndCertificate = { privateKey: KeyObject; certificateDer: Buffer };

/**
 * The appliance's own seal: an ECDSA P-256 key (small, fast to make and to sign with, verified
 * by Acrobat, NSS/poppler and OpenSSL) and a self-signed certificate valid for ten years whose
 * key may only make signatures (digitalSignature + nonRepudiation). No extended key usage is
 * set, so that no verifier rejects it for the "wrong" purpose.
 */
/** The common name of the appliance's own seal for an office (its name, when it has one). */
export function sealCommonName(officeName: string | undefined): string {
  const office = officeName?.trim().slice(0, 200);
  return office ? `SignDesk ${office} document seal` : 'SignDesk document seal';
}

export function makeSealCertificate(officeName: string | undefined, now = new Date()): SealKeyAndCertificate {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicKeyDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  const office = officeName?.trim().slice(0, 200);
  const commonName = sealCommonName(officeName);

  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: positiveSerial() });
  const name = distinguishedName([
    ...(office ? [attribute(ORGANIZATION_OID, office)] : []),
    attribute(COMMON_NAME_OID, commonName),
  ]);
  certificate.subject = name;
  certificate.issuer = name;
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + 10);
  certificate.notBefore = timeOf(new Date(now.getTime() - 60_000));
  certificate.notAfter = timeOf(notAfter);
  certificate.subjectPublicKeyInfo = pkijs.PublicKeyInfo.fromBER(toArrayBuffer(publicKeyDer));

  const keyUsage = new asn1js.BitString({ valueHex: new Uint8Array([0b1100_0000]).buffer, unusedBits: 6 });
  const keyId = createHash('sha1').update(publicKeyDer).digest();
  certificate.extensions = [
    extension('2.5.29.19', true, new pkijs.BasicConstraints({ cA: false }).toSchema()),
    extension('2.5.29.15', true, keyUsage),
    extension('2.5.29.14', false, new asn1js.OctetString({ valueHex: toArrayBuffer(keyId) })),
  ];

  const algorithm = signatureAlgorithmFor(privateKey);
  certificate.signature = algorithm;
  certificate.signatureAlgorithm = algorithm;
  const tbs = new Uint8Array(certificate.encodeTBS().toBER());
  certificate.tbsView = tbs;
  certificate.signatureValue = new asn1js.BitString({ valueHex: toArrayBuffer(signSha256(privateKey, tbs)) });
  return { privateKey, certificateDer: Buffer.from(certificate.toSchema().toBER()) };
}

function attribute(type: string, value: string): pkijs.AttributeTypeAndValue {
  return new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) });
}

/** One attribute per RDN (O=…, CN=…): pkijs would put them all in one multi-valued RDN. */
function distinguishedName(attributes: pkijs.AttributeTypeAndValue[]): pkijs.RelativeDistinguishedNames {
  const sequence = new asn1js.Sequence({
    value: attributes.map((item) => new asn1js.Set({ value: [item.toSchema()] })),
  });
  return pkijs.RelativeDistinguishedNames.fromBER(sequence.toBER());
}

function extension(extnID: string, critical: boolean, value: asn1js.AsnType): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER() });
}

/** RFC 5280 dates: UTCTime until 2049, GeneralizedTime from 2050. */
function timeOf(date: Date): pkijs.Time {
  return new pkijs.Time({ type: date.getUTCFullYear() >= 2050 ? 1 : 0, value: date });
}

function positiveSerial(): ArrayBuffer {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  return toArrayBuffer(serial);
}
