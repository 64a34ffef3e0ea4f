import { createHash, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import { strToU8 } from 'fflate';
import * as pkijs from 'pkijs';
import { toArrayBuffer } from '../crypto/x509-algorithms';
import type { DssItem } from '../pdf/read-dss';
import { isIssuedBy, isSelfSigned, nameOf } from './ltv/find-issuers';

const ID_PKIX_OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1';

/** One README check of a CRL or an OCSP answer: `cert` (a file of the package) checked at `attime` (epoch seconds). */
type RevocationCheck = {
  file: string;
  cert: string;
  subject: string;
  /** The CRL's thisUpdate, the OCSP answer's producedAt, ISO 8601. */
  issuedAt: string;
  attime: number;
  /** The document timestamp (a file of the package) that first covers the item; null: none does. */
  coveredBy: string | null;
};

/** What README.txt says about the DSS, and the files it names. */
export type ValidationDataFacts = {
  certs: { file: string; subject: string; notAfter: string }[];
  crls: RevocationCheck[];
  /** For an OCSP check, the issuer's certificate: a DSS file, or TSA-ROOT.pem. */
  ocsps: (RevocationCheck & { issuer: string })[];
  /** Items that speak of certificates outside the timestamp authorities' chains (the expert checks those against their own roots). */
  others: number;
};

type Cert = { file: string; x509: X509Certificate; parsed: pkijs.Certificate };

/**
 * The package's dss/ folder: every certificate of the signed PDF's DSS as PEM (and all in
 * dss/certificates.pem, for openssl's -untrusted), every CRL and OCSP answer as DER, and for
 * each CRL or OCSP answer about a certificate of a timestamp authority's chain, the time at
 * which openssl can check it (the moment it was issued, within every certificate's validity),
 * so that the README's checks hold after every certificate has expired.
 */
export function validationDataFiles(
  items: DssItem[],
  tokenCertSha256: Set<string>,
  stampFiles: string[],
): { files: Record<string, Uint8Array>; facts: ValidationDataFacts } {
  const files: Record<string, Uint8Array> = {};
  const facts: ValidationDataFacts = { certs: [], crls: [], ocsps: [], others: 0 };
  const certs: Cert[] = [];
  const coveredBy = (item: DssItem) => stampFiles[item.firstIn] ?? null;
  for (const item of items.filter((entry) => entry.kind === 'cert')) {
    let x509: X509Certificate;
    try {
      x509 = new X509Certificate(item.der);
    } catch {
      continue;
    }
    const file = `dss/cert-${certs.length + 1}.pem`;
    files[file] = strToU8(x509.toString());
    certs.push({ file, x509, parsed: pkijs.Certificate.fromBER(toArrayBuffer(item.der)) });
    facts.certs.push({ file, subject: nameOf(x509), notAfter: new Date(x509.validTo).toISOString() });
  }
  if (certs.length > 0) files['dss/certificates.pem'] = strToU8(certs.map((cert) => cert.x509.toString()).join(''));
  const authorities = authorityCerts(certs, tokenCertSha256);

  const crls = items.filter((entry) => entry.kind === 'crl');
  for (const [index, item] of crls.entries()) {
    const file = `dss/crl-${index + 1}.der`;
    files[file] = item.der;
    const crl = readCrl(item.der);
    const targets = crl
      ? authorities.filter((cert) => !isSelfSigned(cert.x509) && derOf(cert.parsed.issuer) === derOf(crl.issuer))
      : [];
    if (!crl || targets.length === 0) {
      facts.others += 1;
      continue;
    }
    for (const cert of targets) {
      const attime = checkTime(cert, certs, crl.thisUpdate.value, crl.nextUpdate?.value);
      if (attime !== undefined)
        facts.crls.push({
          file,
          ...named(cert),
          issuedAt: crl.thisUpdate.value.toISOString(),
          attime,
          coveredBy: coveredBy(item),
        });
    }
  }

  const ocsps = items.filter((entry) => entry.kind === 'ocsp');
  for (const [index, item] of ocsps.entries()) {
    const file = `dss/ocsp-${index + 1}.der`;
    files[file] = item.der;
    const answer = readOcsp(item.der);
    const cert =
      answer &&
      authorities.find(
        (candidate) =>
          serialOf(candidate.parsed) === answer.serial &&
          sha1(Buffer.from(derOf(candidate.parsed.issuer), 'hex')) === answer.issuerNameSha1,
      );
    const attime = cert && checkTime(cert, certs, answer.producedAt, undefined);
    if (!answer || !cert || attime === undefined) {
      facts.others += 1;
      continue;
    }
    const issuer = certs.find((candidate) => isIssuedBy(cert.x509, candidate.x509));
    facts.ocsps.push({
      file,
      ...named(cert),
      issuer: issuer?.file ?? 'TSA-ROOT.pem',
      issuedAt: answer.producedAt.toISOString(),
      attime,
      coveredBy: coveredBy(item),
    });
  }
  return { files, facts };
}

const named = (cert: Cert) => ({ cert: cert.file, subject: nameOf(cert.x509) });

/** The DSS certificates of the timestamp authorities' chains: those the tokens carry, and their issuers in the DSS. */
function authorityCerts(certs: Cert[], tokenCertSha256: Set<string>): Cert[] {
  const sha256 = (cert: Cert) => cert.x509.fingerprint256.replaceAll(':', '').toLowerCase();
  const found = certs.filter((cert) => tokenCertSha256.has(sha256(cert)));
  for (let at = 0; at < found.length; at += 1) {
    const issuer = certs.find((candidate) => isIssuedBy(found[at]!.x509, candidate.x509));
    if (issuer && !found.includes(issuer)) found.push(issuer);
  }
  return found;
}

/**
 * A moment (epoch seconds) just after `issuedAt` at which `cert` and its issuers in the DSS are
 * all valid (and, for a CRL, before its nextUpdate); undefined when there is none.
 */
function checkTime(cert: Cert, certs: Cert[], issuedAt: Date, nextUpdate: Date | undefined): number | undefined {
  const path = [cert];
  for (let at = 0; at < path.length && path.length < 8; at += 1) {
    const issuer = certs.find((candidate) => !path.includes(candidate) && isIssuedBy(path[at]!.x509, candidate.x509));
    if (issuer) path.push(issuer);
  }
  const from = Math.max(issuedAt.getTime(), ...path.map((item) => Date.parse(item.x509.validFrom)));
  const until = Math.min(nextUpdate?.getTime() ?? Infinity, ...path.map((item) => Date.parse(item.x509.validTo)));
  const attime = Math.floor(from / 1000) + 1;
  return attime * 1000 < until ? attime : undefined;
}

function readCrl(der: Uint8Array): pkijs.CertificateRevocationList | undefined {
  try {
    return pkijs.CertificateRevocationList.fromBER(toArrayBuffer(der));
  } catch {
    return undefined;
  }
}

/** What an OCSP answer speaks of (its first certificate's serial and issuer name hash), and when it was produced. */
function readOcsp(der: Uint8Array): { serial: string; issuerNameSha1: string; producedAt: Date } | undefined {
  try {
    const response = pkijs.OCSPResponse.fromBER(toArrayBuffer(der));
    if (response.responseBytes?.responseType !== ID_PKIX_OCSP_BASIC) return undefined;
    const basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
    const single = basic.tbsResponseData.responses[0];
    if (!single) return undefined;
    return {
      serial: hex(single.certID.serialNumber.valueBlock.valueHexView),
      issuerNameSha1: Buffer.from(single.certID.issuerNameHash.valueBlock.valueHexView).toString('hex'),
      producedAt: basic.tbsResponseData.producedAt,
    };
  } catch {
    return undefined;
  }
}

const sha1 = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');
const serialOf = (cert: pkijs.Certificate) => hex(cert.serialNumber.valueBlock.valueHexView);
const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('hex')
    .replace(/^(00)+(?=.)/, '');
const derOf = (name: pkijs.RelativeDistinguishedNames) =>
  Buffer.from((name.toSchema() as asn1js.Sequence).toBER()).toString('hex');
