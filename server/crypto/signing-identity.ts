import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../core/errors';
import type { KeyStore } from './key-store';
import { makeSealCertificate, sealCommonName } from './make-seal-certificate';
import { Pkcs12Error, readPkcs12 } from './read-pkcs12';
import { describeKeyAlgorithm, describeUnsupportedKey, toArrayBuffer } from './x509-algorithms';

/** The key and certificate that seal signed PDFs. */
export type SigningIdentity = {
  privateKey: KeyObject;
  certificate: X509Certificate;
  /** The issuers of `certificate`, nearest first (empty for a self-signed one). */
  chain: X509Certificate[];
  source: 'self-made' | 'imported';
};

export type SigningIdentityDescription = {
  subject: string;
  issuer: string;
  serialNumber: string;
  fingerprintSha256: string;
  validFrom: string;
  validTo: string;
  keyAlgorithm: string;
  source: SigningIdentity['source'];
  selfSigned: boolean;
};

/** One JSON file, written atomically, so that a key never sits beside another key's certificate. */
type StoredIdentity = {
  format: 1;
  source: SigningIdentity['source'];
  storedAt: string;
  keyPem: string;
  certificatePems: string[];
};

const FILE_NAME = 'signing-identity.json';
/** Every seal certificate this appliance made or was given, kept when the seal moves on (PEM, by SHA-256). */
const ARCHIVE_DIR = 'seal-certificates';
const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

/**
 * Whether the appliance's own seal must be made anew: it expires within 30 days, or it does not
 * carry the office's name as it is now (set after the seal was made, or changed). An imported
 * certificate is the office's to renew.
 */
export function needsNewSeal(identity: SigningIdentity, officeName: string | undefined, now: Date): boolean {
  if (identity.source === 'imported') return false;
  if (Date.parse(identity.certificate.validTo) - now.getTime() < RENEW_BEFORE_MS) return true;
  // A caller that does not know the office's name (a test, a tool) keeps the certificate as it is.
  if (officeName === undefined) return false;
  const commonName = /(?:^|\n)CN=([^\n]*)/.exec(identity.certificate.subject)?.[1];
  return commonName !== sealCommonName(officeName);
}

/** Keeps a seal certificate in the archive (DATA_DIR/keys/seal-certificates), so that the office keeps every one it ever sealed with. */
async function archiveCertificate(keys: KeyStore, certificate: X509Certificate): Promise<void> {
  const name = `${ARCHIVE_DIR}/${certificate.fingerprint256.replaceAll(':', '').toLowerCase()}.pem`;
  await keys.createOnce(name, Buffer.from(certificate.toString()));
}

/**
 * The seal identity in the key store; at first run (or when the self-made certificate is about
 * to expire) a new key pair and self-signed certificate are made and stored.
 */
export async function loadSigningIdentity(
  keys: KeyStore,
  options: { officeName?: string; now?: Date } = {},
): Promise<SigningIdentity> {
  const now = options.now ?? new Date();
  const stored = await readStored(keys);
  if (stored) {
    const identity = identityOf(stored);
    await archiveCertificate(keys, identity.certificate);
    if (!needsNewSeal(identity, options.officeName, now)) return identity;
  }
  const made = makeSealCertificate(options.officeName, now);
  const fresh: StoredIdentity = {
    format: 1,
    source: 'self-made',
    storedAt: now.toISOString(),
    keyPem: made.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePems: [new X509Certificate(made.certificateDer).toString()],
  };
  // At first run two processes (server and CLI, or two instances) may race: the first one's
  // identity wins. A renewal replaces the one read, and goes on with what is stored then.
  if (stored) await keys.replace(FILE_NAME, serialize(fresh));
  else await keys.createOnce(FILE_NAME, serialize(fresh));
  const identity = identityOf((await readStored(keys))!);
  await archiveCertificate(keys, identity.certificate);
  return identity;
}

/**
 * Replaces the seal identity with the office's own PKCS#12. Refuses, with a message the office
 * can act on, a wrong passphrase, a file without a private key, a key without its certificate,
 * a certificate that is expired or not allowed to sign, and keys PDF readers cannot verify.
 */
export async function importPkcs12(
  keys: KeyStore,
  p12: Uint8Array,
  passphrase: string,
  now = new Date(),
): Promise<SigningIdentity> {
  let contents;
  try {
    contents = readPkcs12(p12, passphrase);
  } catch (error) {
    if (error instanceof Pkcs12Error) throw refused(error.message);
    throw error;
  }
  const privateKey = contents.keys[0];
  if (!privateKey) throw refused('The PKCS#12 file holds no private key.');
  const unsupported = describeUnsupportedKey(privateKey);
  if (unsupported) throw refused(unsupported);
  const certificate = contents.certificates.find((candidate) => candidate.checkPrivateKey(privateKey));
  if (!certificate) throw refused('The PKCS#12 file holds no certificate for its private key.');
  if (Date.parse(certificate.validTo) < now.getTime())
    throw refused(`The certificate expired on ${new Date(certificate.validTo).toISOString().slice(0, 10)}.`);
  if (Date.parse(certificate.validFrom) > now.getTime())
    throw refused(`The certificate is not valid before ${new Date(certificate.validFrom).toISOString().slice(0, 10)}.`);
  if (!maySign(certificate)) throw refused("The certificate's key usage does not allow digital signatures.");

  const stored: StoredIdentity = {
    format: 1,
    source: 'imported',
    storedAt: now.toISOString(),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    certificatePems: [certificate, ...chainOf(certificate, contents.certificates)].map((cert) => cert.toString()),
  };
  await keys.replace(FILE_NAME, serialize(stored));
  await archiveCertificate(keys, certificate);
  return identityOf(stored);
}

/** A signing identity as it crosses to a worker thread: the key object as is, the certificates as PEM. */
export type SigningIdentityData = {
  privateKey: KeyObject;
  certificatePems: string[];
  source: SigningIdentity['source'];
};

export const signingIdentityData = (identity: SigningIdentity): SigningIdentityData => ({
  privateKey: identity.privateKey,
  certificatePems: [identity.certificate, ...identity.chain].map((certificate) => certificate.toString()),
  source: identity.source,
});

export function signingIdentityFromData(data: SigningIdentityData): SigningIdentity {
  const [certificate, ...chain] = data.certificatePems.map((pem) => new X509Certificate(pem));
  if (!certificate) throw new Error('The signing identity has no certificate.');
  return { privateKey: data.privateKey, certificate, chain, source: data.source };
}

/** What the admin UI shows about the seal. */
export function describeSigningIdentity(identity: SigningIdentity): SigningIdentityDescription {
  const { certificate } = identity;
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    serialNumber: certificate.serialNumber,
    fingerprintSha256: certificate.fingerprint256,
    validFrom: new Date(certificate.validFrom).toISOString(),
    validTo: new Date(certificate.validTo).toISOString(),
    keyAlgorithm: describeKeyAlgorithm(identity.privateKey),
    source: identity.source,
    selfSigned: certificate.subject === certificate.issuer && certificate.verify(certificate.publicKey),
  };
}

function refused(message: string): AppError {
  return new AppError('validation-failed', message, { validationErrors: [`p12: ${message}`] });
}

function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

function maySign(certificate: X509Certificate): boolean {
  const parsed = pkijs.Certificate.fromBER(toArrayBuffer(certificate.raw));
  const keyUsage = parsed.extensions?.find((extension) => extension.extnID === '2.5.29.15');
  if (!keyUsage) return true;
  const bits =
    keyUsage.parsedValue instanceof asn1js.BitString
      ? new Uint8Array(keyUsage.parsedValue.valueBlock.valueHexView)
      : new Uint8Array();
  // digitalSignature (bit 0) or nonRepudiation/contentCommitment (bit 1)
  return ((bits[0] ?? 0) & 0b1100_0000) !== 0;
}

/** The issuers of `leaf` found among `pool`, nearest first, stopping at a self-signed root. */
function chainOf(leaf: X509Certificate, pool: X509Certificate[]): X509Certificate[] {
  const chain: X509Certificate[] = [];
  let current = leaf;
  while (current.subject !== current.issuer && chain.length < 10) {
    const issuer = pool.find(
      (candidate) => candidate !== current && !chain.includes(candidate) && current.checkIssued(candidate),
    );
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

function identityOf(stored: StoredIdentity): SigningIdentity {
  const [leaf, ...chain] = stored.certificatePems.map((pem) => new X509Certificate(pem));
  if (!leaf) throw new Error('The stored signing identity has no certificate.');
  return { privateKey: createPrivateKey(stored.keyPem), certificate: leaf, chain, source: stored.source };
}

async function readStored(keys: KeyStore): Promise<StoredIdentity | undefined> {
  const bytes = await keys.read(FILE_NAME);
  if (bytes === undefined) return undefined;
  const stored = JSON.parse(bytes.toString('utf8')) as StoredIdentity;
  if (stored.format !== 1) throw new Error(`Unknown signing identity format in ${keys.describe(FILE_NAME)}.`);
  return stored;
}

const serialize = (stored: StoredIdentity): Buffer => Buffer.from(JSON.stringify(stored, null, 2));
