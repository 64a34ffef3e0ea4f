import type http from 'node:http';
import type { TLSSocket } from 'node:tls';

/** One year; no includeSubDomains: the office's other hosts are not ours to bind to HTTPS. */
const HSTS = 'max-age=31536000';

/** Whether a peer's forwarding headers are believed (Express's compiled `trust proxy`, TRUSTED_PROXIES). */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * Whether the client's request came over HTTPS: our own TLS, or a trusted proxy's
 * X-Forwarded-Proto (its first value, as Express's req.protocol reads it). From any other peer
 * the header means nothing.
 */
export function isHttpsRequest(req: http.IncomingMessage, trust: ProxyTrust): boolean {
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return false;
  const proto = req.headers['x-forwarded-proto'];
  return typeof proto === 'string' && proto.split(',')[0]?.trim().toLowerCase() === 'https';
}

/** Strict-Transport-Security on every answer given over HTTPS (ours or a trusted proxy's). */
export function withTransportSecurity(listener: http.RequestListener, trust: ProxyTrust): http.RequestListener {
  return (req, res) => {
    if (isHttpsRequest(req, trust)) res.setHeader('Strict-Transport-Security', HSTS);
    listener(req, res);
  };
}
