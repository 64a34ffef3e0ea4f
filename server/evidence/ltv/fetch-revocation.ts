import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { AppContext } from '../../context/app-context';
import { APP_VERSION } from '../../core/version';
import { toArrayBuffer } from '../../crypto/x509-algorithms';
import { httpExchange } from '../../net/http-exchange';
import { completeChain, isIssuedBy, isSelfSigned, nameOf } from './find-issuers';

const ID_SHA1 = '1.3.14.3.2.26';
const ID_CRL_DISTRIBUTION_POINTS = '2.5.29.31';
const ID_PKIX_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';
const TIMEOUT_MS = 15_000;
const MAX_CRL_BYTES = 8 * 1024 * 1024;
const MAX_OCSP_BYTES = 64 * 1024;

/**
 * Revocation data of one chain: its certificates as completed (find-issuers.ts), CRLs and OCSP
 * responses (DER), each checked to speak of its certificate, and the certificates that publish
 * no revocation source at all (nothing can say they are not revoked: stated, not waited for).
 */
export type RevocationData = {
  certificates: X509Certificate[];
  crls: Buffer[];
  ocsps: Buffer[];
  withoutSource: string[];
};

/** Revocation data that could not be had (yet): the job asks again later. */
export class RevocationUnavailable extends Error {
  override name = 'RevocationUnavailable';
}

/**
 * The revocation data of every certificate of a chain (leaf first) but a self-signed root: the
 * chain is first completed with the issuers the token left out (from the office's trusted roots
 * or the certificates' CA Issuers addresses), then for each certificate an OCSP response from
 * each responder its Authority Information Access names (asked of its issuer) and the CRL of
 * each distribution point it names, fetched through the outbound address policy. Without its
 * issuer, a certificate's CRL still serves; with neither, the job waits and says what to add.
 * A certificate that names neither is listed in `withoutSource`. A revoked certificate, or an
 * answer about another one, is an error.
 */
export async function fetchRevocation(
  ctx: AppContext,
  given: X509Certificate[],
  trusted: X509Certificate[],
  signal?: AbortSignal,
): Promise<RevocationData> {
  const { chain, unfound } = await completeChain(ctx, given, trusted, signal);
  const data: RevocationData = { certificates: chain, crls: [], ocsps: [], withoutSource: [] };
  for (const cert of chain) {
    if (isSelfSigned(cert)) continue;
    const issuer = chain.find((candidate) => isIssuedBy(cert, candidate));
    const parsed = pkijs.Certificate.fromBER(toArrayBuffer(cert.raw));
    const name = nameOf(cert);
    const ocspUrls = ocspUrlsOf(cert);
    const crlUrls = crlUrlsOf(parsed);
    if (ocspUrls.length === 0 && crlUrls.length === 0) {
      data.withoutSource.push(name);
      continue;
    }
    if (!issuer && crlUrls.length === 0) {
      const why = unfound?.name === name ? `, and ${unfound.reason}` : '';
      throw new RevocationUnavailable(
        `the issuer of "${name}" is not in the token nor among the trusted roots${why}; OCSP cannot be asked (add the authority's root certificate to the trusted roots in the timestamp settings)`,
      );
    }
    // Without the issuer, OCSP cannot name the certificate; its CRL speaks of it as well.
    if (issuer) for (const url of ocspUrls) data.ocsps.push(await askOcsp(ctx, url, parsed, issuer, name, signal));
    for (const url of crlUrls) data.crls.push(await fetchCrl(ctx, url, parsed, name, signal));
  }
  return data;
}

function ocspUrlsOf(cert: X509Certificate): string[] {
  return [...(cert.infoAccess ?? '').matchAll(/OCSP - URI:(\S+)/g)].map((match) => match[1]!);
}

function crlUrlsOf(cert: pkijs.Certificate): string[] {
  const extension = cert.extensions?.find((item) => item.extnID === ID_CRL_DISTRIBUTION_POINTS);
  const points = (extension?.parsedValue as pkijs.CRLDistributionPoints | undefined)?.distributionPoints ?? [];
  const urls: string[] = [];
  for (const point of points) {
    const names = Array.isArray(point.distributionPoint) ? point.distributionPoint : [];
    for (const name of names)
      if (name.type === 6 && /^https?:\/\//.test(String(name.value))) urls.push(String(name.value));
  }
  return urls.slice(0, 1);
}

async function askOcsp(
  ctx: AppContext,
  url: string,
  cert: pkijs.Certificate,
  issuer: X509Certificate,
  name: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  const issuerParsed = pkijs.Certificate.fromBER(toArrayBuffer(issuer.raw));
  const sha1 = (bytes: ArrayBuffer | Uint8Array) => createHash('sha1').update(new Uint8Array(bytes)).digest();
  const certId = new pkijs.CertID({
    hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: ID_SHA1, algorithmParams: new asn1js.Null() }),
    issuerNameHash: new asn1js.OctetString({ valueHex: toArrayBuffer(sha1(issuerParsed.subject.toSchema().toBER())) }),
    issuerKeyHash: new asn1js.OctetString({
      valueHex: toArrayBuffer(sha1(issuerParsed.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)),
    }),
    serialNumber: cert.serialNumber,
  });
  const request = new pkijs.OCSPRequest();
  request.tbsRequest.requestList = [new pkijs.Request({ reqCert: certId })];
  const body = Buffer.from(request.toSchema(true).toBER());
  let reply: Buffer;
  try {
    reply = await httpExchange(ctx.outbound, url, {
      method: 'POST',
      body,
      contentType: 'application/ocsp-request',
      accept: 'application/ocsp-response',
      userAgent: `SignDesk/${APP_VERSION}`,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_OCSP_BYTES,
      signal,
    });
  } catch (error) {
    throw new RevocationUnavailable(`the OCSP responder of "${name}" ${(error as Error).message}`);
  }
  try {
    const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(reply));
    const status = response.responseStatus.valueBlock.valueDec;
    if (status !== 0 || response.responseBytes?.responseType !== ID_PKIX_OCSP_BASIC)
      throw new Error(`its status is ${status}, not successful`);
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    const single = basic.tbsResponseData.responses.find((item) => item.certID.isEqual(certId));
    if (!single) throw new Error('it speaks of another certificate');
    const state = (single.certStatus as asn1js.BaseBlock).idBlock.tagNumber;
    if (state === 1) throw new Error('it says the certificate is REVOKED');
    if (state !== 0) throw new Error('it does not know the certificate');
  } catch (error) {
    throw new RevocationUnavailable(`the OCSP answer for "${name}" is not usable: ${(error as Error).message}`);
  }
  return reply;
}

async function fetchCrl(
  ctx: AppContext,
  url: string,
  cert: pkijs.Certificate,
  name: string,
  signal?: AbortSignal,
): Promise<Buffer> {
  let reply: Buffer;
  try {
    reply = await httpExchange(ctx.outbound, url, {
      method: 'GET',
      accept: 'application/pkix-crl',
      userAgent: `SignDesk/${APP_VERSION}`,
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_CRL_BYTES,
      signal,
    });
  } catch (error) {
    throw new RevocationUnavailable(`the CRL of "${name}" (${url}) ${(error as Error).message}`);
  }
  const text = reply.subarray(0, 64).toString('latin1');
  const der = text.startsWith('-----BEGIN')
    ? Buffer.from(reply.toString('latin1').replace(/-----[^-]+-----|\s+/g, ''), 'base64')
    : reply;
  try {
    const crl = pkijs.CertificateRevocationList.fromBER(toArrayBuffer(der));
    if (!crl.issuer.isEqual(cert.issuer)) throw new Error('it is issued by another authority');
    const serial = Buffer.from(cert.serialNumber.valueBlock.valueHexView).toString('hex');
    const revoked = (crl.revokedCertificates ?? []).some(
      (item) => Buffer.from(item.userCertificate.valueBlock.valueHexView).toString('hex') === serial,
    );
    if (revoked) throw new Error('it lists the certificate as REVOKED');
  } catch (error) {
    throw new RevocationUnavailable(`the CRL of "${name}" is not usable: ${(error as Error).message}`);
  }
  return der;
}

export const certificateFromPem = (pem: string) => new X509Certificate(pem);
