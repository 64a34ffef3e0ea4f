import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { decryptWithPassphrase, isMacValid } from './pkcs12-cipher';

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

const DATA = '1.2.840.113549.1.7.1';
const ENCRYPTED_DATA = '1.2.840.113549.1.7.6';
const KEY_BAG = '1.2.840.113549.1.12.10.1.1';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const SAFE_CONTENTS_BAG = '1.2.840.113549.1.12.10.1.6';
const X509_CERTIFICATE = '1.2.840.113549.1.9.22.1';

const notPkcs12 = () => new Pkcs12Error('not-pkcs12', 'The file could not be read as PKCS#12.');
const unsupported = (error: unknown) =>
  new Pkcs12Error(
    'not-pkcs12',
    error instanceof Error && error.message.startsWith('unsupported')
      ? `The PKCS#12 file uses a protection SignDesk cannot open (${error.message}).`
      : 'The file could not be read as PKCS#12.',
  );
const wrongPassphrase = () => new Pkcs12Error('wrong-passphrase', 'The passphrase does not open this PKCS#12 file.');

/**
 * Opens a PKCS#12 (.p12/.pfx): pkijs reads its structure, node:crypto (and our RC2) its
 * password-based cryptography, so both the legacy 3DES/RC2 files that Windows and older tools
 * export and the PBES2/AES ones of OpenSSL 3 open. Keys of any type node:crypto knows (RSA,
 * EC, Ed25519) come back as they are.
 */
export function readPkcs12(bytes: Uint8Array, passphrase: string): Pkcs12Contents {
  let pfx: pkijs.PFX;
  try {
    pfx = pkijs.PFX.fromBER(bytes);
  } catch {
    throw new Pkcs12Error('not-pkcs12', 'The file is not a PKCS#12 (.p12/.pfx) file.');
  }
  try {
    return readContents(pfx, passphrase);
  } catch (error) {
    // Anything else a crafted file makes the parsers throw is a file we cannot read, not a crash.
    if (error instanceof Pkcs12Error) throw error;
    throw unsupported(error);
  }
}

function readContents(pfx: pkijs.PFX, passphrase: string): Pkcs12Contents {
  if (pfx.authSafe.contentType !== DATA) throw notPkcs12(); // public-key integrity mode: not made by office tools
  const authSafe = Buffer.from((pfx.authSafe.content as asn1js.OctetString).getValue());
  if (pfx.macData && !isMacValid(pfx.macData, authSafe, passphrase)) throw wrongPassphrase();

  const contents: Pkcs12Contents = { keys: [], certificates: [] };
  let safes: pkijs.AuthenticatedSafe;
  try {
    safes = pkijs.AuthenticatedSafe.fromBER(authSafe);
  } catch {
    throw notPkcs12();
  }
  for (const info of safes.safeContents) {
    if (info.contentType === DATA) {
      readSafeContents(Buffer.from((info.content as asn1js.OctetString).getValue()), passphrase, contents);
    } else if (info.contentType === ENCRYPTED_DATA) {
      const encrypted = new pkijs.EncryptedData({ schema: info.content }).encryptedContentInfo;
      if (!encrypted.encryptedContent) throw notPkcs12();
      const plain = openEncrypted(
        encrypted.contentEncryptionAlgorithm,
        octetsOf(encrypted.encryptedContent),
        passphrase,
      );
      readSafeContents(plain, passphrase, contents);
    }
  }
  return contents;
}

function readSafeContents(der: Uint8Array, passphrase: string, contents: Pkcs12Contents): void {
  let safeContents: pkijs.SafeContents;
  try {
    safeContents = pkijs.SafeContents.fromBER(der);
  } catch {
    // Decrypted with a wrong passphrase (a file without a MAC): garbage with a valid padding.
    throw wrongPassphrase();
  }
  for (const bag of safeContents.safeBags) {
    if (bag.bagId === KEY_BAG) {
      contents.keys.push(privateKeyOf(new Uint8Array((bag.bagValue as pkijs.PrivateKeyInfo).toSchema().toBER(false))));
    } else if (bag.bagId === SHROUDED_KEY_BAG) {
      const shrouded = bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
      const info = openEncrypted(shrouded.encryptionAlgorithm, octetsOf(shrouded.encryptedData), passphrase);
      contents.keys.push(privateKeyOf(info));
    } else if (bag.bagId === CERT_BAG) {
      const certBag = bag.bagValue as pkijs.CertBag;
      if (certBag.certId !== X509_CERTIFICATE) continue;
      contents.certificates.push(
        new X509Certificate(Buffer.from((certBag.certValue as asn1js.OctetString).getValue())),
      );
    } else if (bag.bagId === SAFE_CONTENTS_BAG) {
      readSafeContents(
        new Uint8Array((bag.bagValue as pkijs.SafeContents).toSchema().toBER(false)),
        passphrase,
        contents,
      );
    }
  }
}

/**
 * The bytes of an encrypted content: pkijs hands it back as read, an implicitly tagged string
 * that is primitive (DER) or, in BER files as Windows writes them, split into pieces.
 */
function octetsOf(block: asn1js.BaseBlock): Uint8Array {
  const value = block.valueBlock as { value?: asn1js.BaseBlock[]; valueHexView?: Uint8Array };
  if (block.idBlock.isConstructed && value.value) return Buffer.concat(value.value.map(octetsOf));
  return value.valueHexView ?? new Uint8Array();
}

function openEncrypted(algorithm: pkijs.AlgorithmIdentifier, data: Uint8Array, passphrase: string): Buffer {
  try {
    return decryptWithPassphrase(algorithm, data, passphrase);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('unsupported')) throw unsupported(error);
    throw wrongPassphrase();
  }
}

function privateKeyOf(der: Uint8Array): KeyObject {
  try {
    return createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' });
  } catch {
    throw wrongPassphrase();
  }
}
