import type { ReadContext } from '../context/read-context';
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import type { AppContext } from '../context/app-context';
import type { KeyStore } from '../crypto/key-store';
import type { ServedCertificate } from '../context/acme-runtime';

/**
 * The durable side of the ACME certificate. The account key, the certificate's key and its
 * chain are keys of the office's key store (files of DATA_DIR/keys, mode 600, or rows sealed
 * in the database; in every backup: a restored office keeps its certificate and does not spend
 * the CA's rate limit); what happened last is a setting.
 */
const FILES = {
  accountKey: 'acme-account.key',
  certificateKey: 'acme-certificate.key',
  certificate: 'acme-certificate.pem',
} as const;
const STATE_KEY = 'acme.state';

export type AcmeState = {
  /** Epoch ms of the last certificate obtained. */
  lastRenewalAt: number | null;
  lastAttemptAt: number | null;
  /** What went wrong at the last attempt; null after a success. */
  lastError: string | null;
  /** Failed attempts in a row (the back-off's step). */
  failures: number;
  /** The admin asked for a new certificate now, whatever the one in force. */
  isRenewalAsked: boolean;
};

const EMPTY_STATE: AcmeState = {
  lastRenewalAt: null,
  lastAttemptAt: null,
  lastError: null,
  failures: 0,
  isRenewalAsked: false,
};

export async function readAcmeState(ctx: ReadContext): Promise<AcmeState> {
  const text = await ctx.repos.settings.get(STATE_KEY);
  if (text === undefined) return { ...EMPTY_STATE };
  try {
    return { ...EMPTY_STATE, ...(JSON.parse(text) as Partial<AcmeState>) };
  } catch {
    return { ...EMPTY_STATE };
  }
}

export async function writeAcmeState(ctx: AppContext, state: AcmeState): Promise<void> {
  await ctx.repos.settings.set(STATE_KEY, JSON.stringify(state), ctx.now());
}

/** The ACME account's key (ECDSA P-256, PKCS#8 PEM), made once. */
export async function readOrCreateAccountKey(keys: KeyStore): Promise<string> {
  const stored = await keys.read(FILES.accountKey);
  if (stored) return stored.toString('utf8');
  return (await keys.createOnce(FILES.accountKey, Buffer.from(newPrivateKeyPem()))).toString('utf8');
}

export function newPrivateKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** The certificate's key first: a crash between the two leaves the old chain with a key that is not its own, which reading refuses. */
export async function saveCertificate(keys: KeyStore, served: ServedCertificate): Promise<void> {
  await keys.replace(FILES.certificateKey, Buffer.from(served.keyPem));
  await keys.replace(FILES.certificate, Buffer.from(served.certPem));
}

/** The stored certificate when its keys are whole and belong together; undefined otherwise. */
export async function loadCertificate(keys: KeyStore): Promise<ServedCertificate | undefined> {
  try {
    const certPem = (await keys.read(FILES.certificate))?.toString('utf8');
    const keyPem = (await keys.read(FILES.certificateKey))?.toString('utf8');
    if (certPem === undefined || keyPem === undefined) return undefined;
    const leaf = new X509Certificate(certPem);
    if (!leaf.checkPrivateKey(createPrivateKey(keyPem))) return undefined;
    return { certPem, keyPem };
  } catch {
    return undefined;
  }
}

export type CertificateFacts = {
  subject: string;
  domains: string[];
  issuer: string;
  serial: string;
  notBefore: number;
  notAfter: number;
};

/** What the admin sees of a chain's leaf certificate. */
export function describeCertificate(certPem: string): CertificateFacts {
  const leaf = new X509Certificate(certPem);
  const domains = (leaf.subjectAltName ?? '')
    .split(', ')
    .filter((name) => name.startsWith('DNS:'))
    .map((name) => name.slice(4));
  return {
    subject: leaf.subject.replaceAll('\n', ', '),
    domains,
    issuer: leaf.issuer.replaceAll('\n', ', '),
    serial: leaf.serialNumber,
    notBefore: Date.parse(leaf.validFrom),
    notAfter: Date.parse(leaf.validTo),
  };
}

/**
 * When a certificate is renewed: once a third of its lifetime is left (30 days of Let's
 * Encrypt's 90, two of a six-day certificate), so a failing CA leaves weeks of retries.
 */
export function renewalTimeOf(facts: Pick<CertificateFacts, 'notBefore' | 'notAfter'>): number {
  return facts.notAfter - Math.floor((facts.notAfter - facts.notBefore) / 3);
}
