import type { Config } from '../config/config';
import { createOutboxSignal, type OutboxSignal } from './outbox-signal';
import type { ChallengeStore } from './challenge-store';

/**
 * The domain the party listener's certificate is ordered for: ACME_DOMAIN, while there is a
 * party listener (PUBLIC_PORT, from the environment or the reach settings) to serve it on.
 */
export function acmeDomainOf(config: Config): string | undefined {
  return config.publicPort === undefined ? undefined : config.acme.domain;
}

/** A certificate chain (leaf first) and its private key, as PEM: what the public listener serves. */
export type ServedCertificate = { certPem: string; keyPem: string };

/**
 * What the ACME parts share while the server runs: the certificate in force (the public listener takes each new one without a restart), and the
 * wake-up of the certificate's job. The files in DATA_DIR/keys are its durable copy.
 */
export type AcmeRuntime = {
  certificate(): ServedCertificate | undefined;
  replace(next: ServedCertificate): void;
  /** Called with each new certificate; returns a function that removes the listener. */
  onChange(listener: (next: ServedCertificate) => void): () => void;
  /** Wakes the certificate's job (a renewal asked for). */
  readonly signal: OutboxSignal;
  /** True while an order is under way (a second one waits for it). */
  isObtaining: boolean;
  /** Where the HTTP-01 listener listens, once it does. */
  challengePort: number | null;
  /** Why the HTTP-01 listener could not listen (port 80 taken, or not ours to take): no order can pass then. */
  listenerError: string | undefined;
  /** The last order's failure (also in the settings' `acme.state`), undefined after a success. */
  lastError: { message: string; at: number } | undefined;
  /** ACME_DOMAIN and ACME_EMAIL as the environment gave them (saved settings may override them). */
  environment: { domain: string | undefined; email: string | undefined };
};

/** `stored`: the certificate of DATA_DIR/keys, served from the start while the job looks at it. */
export function createAcmeRuntime(stored: ServedCertificate | undefined): AcmeRuntime {
  let current = stored;
  const listeners = new Set<(next: ServedCertificate) => void>();
  return {
    certificate: () => current,
    replace(next) {
      current = next;
      for (const listener of listeners) listener(next);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signal: createOutboxSignal(),
    isObtaining: false,
    challengePort: null,
    listenerError: undefined,
    lastError: undefined,
    environment: { domain: undefined, email: undefined },
  };
}

/** An ACME token is base64url (RFC 8555 §8.1); anything else is not ours to look up. */
const TOKEN = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{1,256})$/;

/** The key authorization for a request path of an HTTP-01 challenge, or undefined (then 404). */
export function answerChallenge(challenges: ChallengeStore, pathname: string): string | undefined {
  const token = TOKEN.exec(pathname)?.[1];
  return token === undefined ? undefined : challenges.get(token);
}
