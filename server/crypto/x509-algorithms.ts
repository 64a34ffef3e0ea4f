import { sign, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** SHA-256 everywhere: the digest of the CMS and of the certificates we make. */
export const SHA256_OID = '2.16.840.1.101.3.4.2.1';
const SHA256_WITH_RSA_OID = '1.2.840.113549.1.1.11';
const ECDSA_WITH_SHA256_OID = '1.2.840.10045.4.3.2';

const SUPPORTED_CURVES = new Set(['prime256v1', 'secp384r1', 'secp521r1']);

/** Why a key cannot seal documents, or undefined when it can (RSA of 2048 bits and more, or ECDSA on a NIST curve). */
export function describeUnsupportedKey(key: KeyObject): string | undefined {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') {
    return (details.modulusLength ?? 0) >= 2048 ? undefined : 'RSA keys shorter than 2048 bits are not accepted.';
  }
  if (key.asymmetricKeyType === 'ec') {
    return SUPPORTED_CURVES.has(details.namedCurve ?? '')
      ? undefined
      : `The elliptic curve ${details.namedCurve ?? '?'} is not supported (use P-256, P-384 or P-521).`;
  }
  return `Keys of type ${key.asymmetricKeyType ?? 'unknown'} are not supported (use RSA or ECDSA).`;
}

export function describeKeyAlgorithm(key: KeyObject): string {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return `RSA ${details.modulusLength ?? '?'}`;
  if (key.asymmetricKeyType === 'ec')
    return `ECDSA ${details.namedCurve === 'prime256v1' ? 'P-256' : details.namedCurve === 'secp384r1' ? 'P-384' : details.namedCurve === 'secp521r1' ? 'P-521' : details.namedCurve}`;
  return key.asymmetricKeyType ?? 'unknown';
}

/** The AlgorithmIdentifier of a SHA-256 signature by this key. */
export function signatureAlgorithmFor(key: KeyObject): pkijs.AlgorithmIdentifier {
  if (key.asymmetricKeyType === 'rsa') {
    return new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_WITH_RSA_OID, algorithmParams: new asn1js.Null() });
  }
  return new pkijs.AlgorithmIdentifier({ algorithmId: ECDSA_WITH_SHA256_OID });
}

export function sha256AlgorithmIdentifier(): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({ algorithmId: SHA256_OID, algorithmParams: new asn1js.Null() });
}

/**
 * Signs with node:crypto rather than WebCrypto: synchronous, native, and it takes the KeyObject
 * we keep. ECDSA signatures come out DER-encoded, the form CMS and X.509 want.
 */
export function signSha256(key: KeyObject, data: Uint8Array): Buffer {
  return sign('sha256', data, { key, dsaEncoding: 'der' });
}

export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
