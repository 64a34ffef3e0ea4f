import crypto from 'node:crypto';
import type { CertificateSource } from './certificate-source';
import { createChallengeStore, type ChallengeStore } from './challenge-store';

/**
 * The party surface's running parts, on the context: what createServer started (the public
 * listener's URL, the certificate source) and what an ACME client fills (the HTTP-01 answers).
 */
export type ReachRuntime = {
  challenges: ChallengeStore;
  /** The source of the party listener's HTTPS certificate; undefined when it serves plain HTTP or is off. */
  certificate: CertificateSource | undefined;
  /** Where the party listener listens (`https://127.0.0.1:8443`), once it does; undefined without PUBLIC_PORT. */
  listenUrl: string | undefined;
  /** The office listener's port, once it listens (a saved PUBLIC_PORT may not take it). */
  officePort: number | undefined;
  /** PUBLIC_PORT and PUBLIC_HOST as the environment gave them, before saved values won. */
  environment: { port: number | undefined; host: string };
  /** Why the party listener of the saved settings could not start (the office surface runs on). */
  listenerError: string | undefined;
  /**
   * Random per process, in every health answer: the self-check knows by it that the address
   * it fetched reached this appliance, not a router's page or another server.
   */
  readonly instance: string;
};

export function createReachRuntime(): ReachRuntime {
  return {
    challenges: createChallengeStore(),
    certificate: undefined,
    listenUrl: undefined,
    officePort: undefined,
    environment: { port: undefined, host: '0.0.0.0' },
    listenerError: undefined,
    instance: crypto.randomBytes(12).toString('base64url'),
  };
}
