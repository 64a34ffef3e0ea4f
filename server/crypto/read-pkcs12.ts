import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

export type Pkcs12Contents = { keys: KeyObject[]; certificates: X509Certificate[] };

/** Why a PKCS#12 file could not be read: the caller turns it into a message for the office. */
export class Pkcs12Error extends Error {
  readonly reason: 'not-pkcs12' | 'wrong-passphrase';
  constructor(reason: Pkcs12Error['reason'], message: string) {
    super(message);
    this.name = 'Pkcs12Error';
    this.reason = reason;
  }
}

/**
 * Opens a PKCS#12 (.p12/.pfx) with node-forge, which reads both the legacy 3DES/RC2 files that
 * Windows and older tools export and the PBES2/AES ones of OpenSSL 3. forge only understands
 * RSA keys and certificates itself; for others it hands back the ASN.1, which node:crypto parses.
 */
export function readPkcs12(bytes: Uint8Array, passphrase: string): Pkcs12Contents {
  let asn1: forge.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString('binary')));
  } catch {
    throw new Pkcs12Error('not-pkcs12', 'The file is not a PKCS#12 (.p12/.pfx) file.');
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, false, passphrase);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password|MAC could not be verified|decrypt/i.test(message)) {
      throw new Pkcs12Error('wrong-passphrase', 'The passphrase does not open this PKCS#12 file.');
    }
    throw new Pkcs12Error('not-pkcs12', 'The file could not be read as PKCS#12.');
  }

  const keys: KeyObject[] = [];
  const certificates: X509Certificate[] = [];
  try {
    for (const bagType of [forge.pki.oids.pkcs8ShroudedKeyBag!, forge.pki.oids.keyBag!]) {
      for (const bag of p12.getBags({ bagType })[bagType] ?? []) keys.push(privateKeyOf(bag));
    }
    const certBag = forge.pki.oids.certBag!;
    for (const bag of p12.getBags({ bagType: certBag })[certBag] ?? []) certificates.push(certificateOf(bag));
  } catch {
    // A wrong passphrase on a file without a MAC decrypts to garbage rather than failing.
    throw new Pkcs12Error('wrong-passphrase', 'The passphrase does not open this PKCS#12 file.');
  }
  return { keys, certificates };
}

type BagWithAsn1 = forge.pkcs12.Bag & { asn1?: forge.asn1.Asn1 };

function privateKeyOf(bag: BagWithAsn1): KeyObject {
  const info = bag.key
    ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key as forge.pki.rsa.PrivateKey))
    : bag.asn1;
  if (!info) throw new Error('empty key bag');
  return createPrivateKey({ key: derOf(info), format: 'der', type: 'pkcs8' });
}

function certificateOf(bag: BagWithAsn1): X509Certificate {
  const asn1 = bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1;
  if (!asn1) throw new Error('empty certificate bag');
  return new X509Certificate(derOf(asn1));
}

function derOf(asn1: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}
