/**
 * A connection error as the admin may see it (webhook attempts, the outbox, the SMTP test): its
 * code and what it means, never the addresses and ports Node's messages carry ("connect
 * ECONNREFUSED 10.0.0.7:22" would map the office's network for whoever can save a URL).
 */
const MEANINGS: Record<string, string> = {
  EOUTBOUNDPOLICY: '',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was closed by the other side',
  EPIPE: 'the connection was closed by the other side',
  ETIMEDOUT: 'the connection timed out',
  ESOCKETTIMEDOUT: 'the connection timed out',
  ENOTFOUND: 'the host name could not be resolved',
  EAI_AGAIN: 'the host name could not be resolved (try again later)',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  EADDRNOTAVAIL: 'the address cannot be used from here',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: the certificate is not for this host name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: the certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'TLS: the certificate chain ends in a self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: the certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'TLS: the certificate cannot be verified',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  EPROTO: 'TLS or protocol error',
};

export function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return 'the connection failed';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EOUTBOUNDPOLICY') return error.message;
  const meaning = code ? MEANINGS[code] : undefined;
  if (code && meaning) return `${code}: ${meaning}`;
  if (code && /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO)/.test(code)) return `${code}: TLS error`;
  return code ? `${code}: the connection failed` : 'the connection failed';
}
