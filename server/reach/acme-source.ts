import { describeCertificate, makeTlsPair, type CertificateSource, type TlsPair } from '../crypto/certificate-source';
import type { AcmeRuntime, ServedCertificate } from '../context/acme-runtime';

/**
 * The party listener's certificate from the ACME CA (acme-worker.ts orders and renews it). It
 * starts with the certificate stored in DATA_DIR/keys, or none while the first order runs (the
 * listener then fails handshakes until one comes), and hands each new one to the listener
 * without a restart.
 */
export function acmeSource(acme: AcmeRuntime, now: () => number): CertificateSource {
  let pair: TlsPair | undefined;
  let loadedAt: number | null = null;
  const listeners: (() => void)[] = [];
  let unlisten: (() => void) | undefined;
  const take = (served: ServedCertificate) => {
    pair = makeTlsPair(served.keyPem, served.certPem);
    loadedAt = now();
  };
  return {
    mode: 'acme',
    async start() {
      const stored = acme.certificate();
      if (stored) take(stored);
      unlisten = acme.onChange((next) => {
        take(next);
        for (const listener of listeners) listener();
      });
    },
    current: () => pair,
    describe: () => describeCertificate(pair?.cert, loadedAt, acme.lastError),
    onChange: (listener) => void listeners.push(listener),
    close: () => unlisten?.(),
  };
}
