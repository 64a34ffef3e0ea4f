import type { Config } from '../config/config';
import type { AppContext } from '../context/app-context';
import type { CertificateSource } from '../crypto/certificate-source';
import { pemFileSource } from './pem-file-source';
import { acmeSource } from './acme-source';
import { acmeDomainOf } from '../context/acme-runtime';

/** A listening address as a link's host: the unspecified address is reached on loopback here. */
export function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Whether the party listener speaks HTTPS with a certificate of its own (a source below).
 */
export function servesTls(config: Config): boolean {
  return (
    (config.publicTlsCert !== undefined && config.publicTlsKey !== undefined) || acmeDomainOf(config) !== undefined
  );
}

/**
 * Where the party surface's certificate comes from: the ACME CA (ACME_DOMAIN; its challenge
 * answers go through ctx.reach.challenges), the office's PEM files, else none (the party listener
 * speaks plain HTTP: behind a TLS-terminating proxy or tunnel, or for a test). The configuration
 * allows one of the two sources at most.
 */
export function certificateSourceOf(ctx: AppContext): CertificateSource | undefined {
  const { config } = ctx;
  if (config.publicPort === undefined) return undefined;
  if (acmeDomainOf(config) !== undefined) return acmeSource(ctx.acme, ctx.now);
  if (config.publicTlsCert !== undefined && config.publicTlsKey !== undefined) {
    return pemFileSource({
      certPath: config.publicTlsCert,
      keyPath: config.publicTlsKey,
      now: ctx.now,
      logger: ctx.logger,
    });
  }
  return undefined;
}

/** The party listener's own URL for a port (before listening: the configured one). */
export function partyListenUrl(config: Config, port: number): string {
  return `${servesTls(config) ? 'https' : 'http'}://${linkHost(config.publicHost)}:${port}`;
}

/**
 * The two bases of links (docs/decisions.md, "Reach"). Without PUBLIC_PORT, one surface: both
 * are PUBLIC_BASE_URL or the listener's URL, exactly as before the split. With it, parties get
 * PUBLIC_BASE_URL or the party listener's URL, and the office's own links (API Link headers,
 * problem types, admin pages in notices) stay on the office listener, where they work.
 */
export function baseUrlsOf(
  config: Config,
  officeUrl: () => string,
  partyUrl: () => string | undefined,
): { baseUrl: () => string; partyBaseUrl: () => string } {
  // Decided at each call: a saved PUBLIC_PORT is applied after these are made (reach-settings.ts).
  const isSplit = () => config.publicPort !== undefined;
  return {
    baseUrl: () => (isSplit() ? officeUrl() : (config.publicBaseUrl ?? officeUrl())),
    partyBaseUrl: () => config.publicBaseUrl ?? (isSplit() ? partyUrl() : undefined) ?? officeUrl(),
  };
}
