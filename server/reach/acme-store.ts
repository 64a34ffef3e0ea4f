import type { ReadContext } from '../context/read-context';
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context/app-context';
import { createKeyFileOnce } from '../crypto/key-file';
import type { ServedCertificate } from '../context/acme-runtime';

/**
 * The durable side of the ACME certificate. The account key, the certificate's key and its
 * chain are files of DATA_DIR/keys (mode 600, in every backup: a restored office keeps its
 * certificate and does not spend the CA's rate limit); what happened last is a setting.
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
export function readOrCreateAccountKey(keysDir: string): string {
  const file = path.join(keysDir, FILES.accountKey);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8');
  return createKeyFileOnce(file, Buffer.from(newPrivateKeyPem())).toString('utf8');
}

export function newPrivateKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

/** Replaces a file whole: written to a temporary file (mode 600), synced, renamed over the old one. */
function replaceFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/** The certificate's key first: a crash between the two leaves the old chain with a key that is not its own, which reading refuses. */
export function saveCertificate(keysDir: string, served: ServedCertificate): void {
  replaceFile(path.join(keysDir, FILES.certificateKey), served.keyPem);
  replaceFile(path.join(keysDir, FILES.certificate), served.certPem);
}

/** The stored certificate when its files are whole and belong together; undefined otherwise. */
export function loadCertificate(keysDir: string): ServedCertificate | undefined {
  try {
    const certPem = fs.readFileSync(path.join(keysDir, FILES.certificate), 'utf8');
    const keyPem = fs.readFileSync(path.join(keysDir, FILES.certificateKey), 'utf8');
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
