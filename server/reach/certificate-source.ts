import crypto from 'node:crypto';
import tls from 'node:tls';

/**
 * A key and certificate chain for the party surface's HTTPS, ready to serve: the PEM text
 * (server.setSecureContext takes options, for clients that send no SNI) and the context made
 * from it (the SNICallback hands it out without making it again).
 */
export type TlsPair = { key: string; cert: string; context: tls.SecureContext };

/** What the admin sees of the certificate being served, and of the last failure to get one. */
export type CertificateState = {
  subject: string | null;
  issuer: string | null;
  /** ISO 8601 */
  validFrom: string | null;
  validTo: string | null;
  /** DNS names and addresses the certificate is for. */
  names: string[];
  fingerprint256: string | null;
  /** When this pair started being served (epoch ms). */
  loadedAt: number | null;
  /** The last failure to load or renew one (the old pair, if any, is still served). */
  lastError: string | null;
  lastErrorAt: number | null;
};

/**
 * Where the party listener gets its certificate from; the listener serves whatever `current()`
 * holds and swaps it live when the source calls its change listeners. Two sources:
 * pem-file-source.ts (PUBLIC_TLS_CERT/PUBLIC_TLS_KEY, reloaded when the files change) and the
 * ACME source (a certificate from an ACME CA; it answers HTTP-01 challenges through
 * ctx's challenge store, challenge-store.ts). A source:
 *  - `start()` loads or obtains a first pair; it may resolve with none yet (an ACME order still
 *    running): the listener then fails handshakes until `current()` holds one;
 *  - calls every `onChange` listener after `current()` changed (a reload, a renewal);
 *  - keeps serving the old pair when a new one fails, and says so in `describe().lastError`;
 *  - stops its watchers and timers in `close()`.
 */
export type CertificateSource = {
  readonly mode: 'pem-files' | 'acme';
  start(): Promise<void>;
  current(): TlsPair | undefined;
  describe(): CertificateState;
  onChange(listener: () => void): void;
  close(): void;
};

/** A pair from PEM text, checked: the key must be the certificate's. Throws a plain-words Error otherwise. */
export function makeTlsPair(key: string, cert: string): TlsPair {
  let certificate: crypto.X509Certificate;
  try {
    certificate = new crypto.X509Certificate(cert);
  } catch {
    throw new Error('the certificate file holds no PEM certificate');
  }
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey(key);
  } catch {
    throw new Error('the key file holds no PEM private key (or it is encrypted)');
  }
  if (!certificate.checkPrivateKey(privateKey)) throw new Error('the key is not the certificate’s key');
  return { key, cert, context: tls.createSecureContext({ key, cert }) };
}

/** The served certificate's description (its first, the leaf, certificate of the chain). */
export function describeCertificate(
  cert: string | undefined,
  loadedAt: number | null,
  lastError: { message: string; at: number } | undefined,
): CertificateState {
  const leaf = cert === undefined ? undefined : new crypto.X509Certificate(cert);
  const names = (leaf?.subjectAltName ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/^(DNS|IP Address):/, ''))
    .filter((entry) => entry !== '');
  return {
    subject: leaf ? leaf.subject.replace(/\n/g, ', ') : null,
    issuer: leaf ? leaf.issuer.replace(/\n/g, ', ') : null,
    validFrom: leaf ? new Date(leaf.validFrom).toISOString() : null,
    validTo: leaf ? new Date(leaf.validTo).toISOString() : null,
    names,
    fingerprint256: leaf?.fingerprint256 ?? null,
    loadedAt,
    lastError: lastError?.message ?? null,
    lastErrorAt: lastError?.at ?? null,
  };
}
