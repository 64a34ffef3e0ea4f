import { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import type { AppContext } from '../../context/app-context';
import { APP_VERSION } from '../../core/version';
import { toArrayBuffer } from '../../crypto/x509-algorithms';
import { httpExchange } from '../../net/http-exchange';

const TIMEOUT_MS = 15_000;
/** A certificate, or a few in a PKCS #7 bundle, is a few KiB: more is not read. */
const MAX_ISSUER_BYTES = 64 * 1024;
/** Longer than any real chain from a timestamp authority to its root. */
const MAX_CHAIN = 6;
const ID_SIGNED_DATA = '1.2.840.113549.1.7.2';

/** A chain completed as far as its issuers could be found, leaf first. */
export type CompletedChain = {
  chain: X509Certificate[];
  /** Why the chain stops below a self-signed root; undefined when it reaches one. */
  unfound?: { name: string; reason: string };
};

export const nameOf = (cert: X509Certificate) => cert.subject.replaceAll('\n', ', ');
/** Its own issuer: names alike and its own key verifies it (OpenSSL's checkIssued also wants a CA's key usage, which the appliance's seal lacks). */
export const isSelfSigned = (cert: X509Certificate) => cert.subject === cert.issuer && verifies(cert, cert);
/** Whether `issuer` issued `cert`: names (and key identifiers) match and its key verifies the signature. */
export const isIssuedBy = (cert: X509Certificate, issuer: X509Certificate) =>
  cert !== issuer && cert.checkIssued(issuer) && verifies(cert, issuer);

function verifies(cert: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return cert.verify(issuer.publicKey);
  } catch {
    // A key or algorithm this Node cannot use: not an issuer it can vouch for.
    return false;
  }
}

/**
 * The chain of `given[0]` up to a self-signed root, each issuer looked for in turn among the
 * certificates the token carries, among the office's trusted roots, and at the address the
 * certificate's Authority Information Access names (CA Issuers, RFC 5280 4.2.2.1: a DER
 * certificate or a PKCS #7 bundle), fetched through the outbound address policy with a timeout
 * and a size bound. Many authorities' tokens carry only their own certificate. An issuer is
 * taken only when its key verifies the certificate's signature. The given certificates not on
 * the path stay after it.
 */
export async function completeChain(
  ctx: AppContext,
  given: X509Certificate[],
  trusted: X509Certificate[],
  signal?: AbortSignal,
): Promise<CompletedChain> {
  const [leaf] = given;
  if (!leaf) return { chain: [] };
  const path = [leaf];
  const pool = [...given, ...trusted];
  let unfound: CompletedChain['unfound'];
  for (let current = leaf; path.length < MAX_CHAIN && !isSelfSigned(current);) {
    let issuer = pool.find((candidate) => isIssuedBy(current, candidate));
    if (!issuer) {
      const fetched = await fetchIssuer(ctx, current, signal);
      if ('reason' in fetched) {
        unfound = { name: nameOf(current), reason: fetched.reason };
        break;
      }
      issuer = fetched.issuer;
    }
    if (path.some((cert) => cert.fingerprint256 === issuer.fingerprint256)) break;
    path.push(issuer);
    current = issuer;
  }
  const rest = given.filter((cert) => !path.some((onPath) => onPath.fingerprint256 === cert.fingerprint256));
  return { chain: [...path, ...rest], ...(unfound ? { unfound } : {}) };
}

/** The issuer of `cert` from its CA Issuers addresses (http and https only), or why there is none. */
async function fetchIssuer(
  ctx: AppContext,
  cert: X509Certificate,
  signal?: AbortSignal,
): Promise<{ issuer: X509Certificate } | { reason: string }> {
  const urls = caIssuersUrlsOf(cert);
  if (urls.length === 0) return { reason: 'it names no CA Issuers address (Authority Information Access)' };
  const reasons: string[] = [];
  for (const url of urls) {
    let reply: Buffer;
    try {
      reply = await httpExchange(ctx.outbound, url, {
        method: 'GET',
        accept: 'application/pkix-cert, application/pkcs7-mime',
        userAgent: `SignDesk/${APP_VERSION}`,
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_ISSUER_BYTES,
        signal,
      });
    } catch (error) {
      reasons.push(`its CA Issuers address ${url} ${(error as Error).message}`);
      continue;
    }
    const issuer = certificatesIn(reply).find((candidate) => isIssuedBy(cert, candidate));
    if (issuer) return { issuer };
    reasons.push(`its CA Issuers address ${url} gave no certificate that issued it`);
  }
  return { reason: reasons.join('; ') };
}

function caIssuersUrlsOf(cert: X509Certificate): string[] {
  return [...(cert.infoAccess ?? '').matchAll(/CA Issuers - URI:(\S+)/g)]
    .map((match) => match[1]!)
    .filter((url) => /^https?:\/\//i.test(url))
    .slice(0, 3);
}

/** The certificates in a CA Issuers answer: one DER or PEM certificate, or a PKCS #7 (certs-only) bundle. */
function certificatesIn(reply: Buffer): X509Certificate[] {
  const text = reply.subarray(0, 64).toString('latin1');
  if (text.startsWith('-----BEGIN CERTIFICATE')) {
    const pems = reply.toString('latin1').match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    return pems.flatMap((pem) => parsed(pem));
  }
  const single = parsed(reply);
  if (single.length > 0) return single;
  try {
    const info = pkijs.ContentInfo.fromBER(toArrayBuffer(reply));
    if (info.contentType !== ID_SIGNED_DATA) return [];
    const signed = new pkijs.SignedData({ schema: info.content });
    return (signed.certificates ?? [])
      .filter((item): item is pkijs.Certificate => item instanceof pkijs.Certificate)
      .flatMap((item) => parsed(Buffer.from(item.toSchema().toBER())));
  } catch {
    return [];
  }
}

function parsed(bytes: Buffer | string): X509Certificate[] {
  try {
    return [new X509Certificate(bytes)];
  } catch {
    return [];
  }
}
