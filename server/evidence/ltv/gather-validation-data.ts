import { X509Certificate } from 'node:crypto';
import type { AppContext } from '../../context/app-context';
import type { InspectedCertificate, InspectedPdf, InspectedSignature } from '../../crypto/inspect-signatures';
import type { DssData } from '../../pdf/dss-objects';
import { fetchRevocation, RevocationUnavailable, type RevocationData } from './fetch-revocation';
import { readTrustedCertificates } from './trusted-roots';

/** The DSS contents for a file, and what they lack, in words (the contract's `ltv_note`, the log). */
export type GatheredValidationData = { dss: DssData; notes: string[] };

/**
 * The DSS contents for every signature of the file: each one's certificates (the seal's, and
 * those its timestamp and every document timestamp carry, completed with the issuers they left
 * out) and their revocation data. The newest signature comes first and must get fresh data, or
 * the job waits: at a renewal that is the last archive timestamp, which the renewal is for. An
 * older one's CA may be long gone: at a renewal, data that cannot be had for it is noted, and
 * the DSS keeps what it has. Only what was had is reused between signatures on one chain, so a
 * failure for an older signature is never taken for fresh data for the newest.
 */
export async function gatherValidationData(
  ctx: AppContext,
  inspected: InspectedPdf,
  options: { isRenewal: boolean; signal: AbortSignal },
): Promise<GatheredValidationData> {
  const { signal } = options;
  const signatures = inspected.signatures.filter(
    (signature) => signature.kind !== 'unreadable' && signature.problem === null,
  );
  const newest = signatures.at(-1);
  const trusted = await readTrustedCertificates(ctx);
  const fetched = new Map<string, RevocationData>();
  const failed = new Map<string, RevocationUnavailable>();
  const notes = new Set<string>();
  const revocationOf = async (signature: InspectedSignature, chain: X509Certificate[]) => {
    const key = chain.map((cert) => cert.fingerprint256).join('/');
    const known = fetched.get(key);
    if (known) return known;
    try {
      const seen = failed.get(key);
      if (seen) throw seen;
      const data = await fetchRevocation(ctx, chain, trusted, signal);
      fetched.set(key, data);
      return data;
    } catch (error) {
      if (!options.isRenewal || signature === newest || !(error instanceof RevocationUnavailable)) throw error;
      failed.set(key, error);
      notes.add(`the revocation data of an older signature's chain was kept as the PDF had it (${error.message})`);
      return undefined;
    }
  };
  // The newest signature's chains first: they alone must be fresh.
  if (newest) for (const chain of chainsOf(newest)) await revocationOf(newest, chain);

  const dss: DssData = { certs: [], crls: [], ocsps: [], vri: [] };
  const indexOf = (list: Uint8Array[], item: Buffer) => {
    const at = list.findIndex((known) => item.equals(known));
    if (at >= 0) return at;
    list.push(item);
    return list.length - 1;
  };
  for (const signature of signatures) {
    const entry = { key: signature.contentsSha1, certs: [] as number[], crls: [] as number[], ocsps: [] as number[] };
    for (const chain of chainsOf(signature)) {
      const revocation = await revocationOf(signature, chain);
      for (const cert of revocation?.certificates ?? chain) entry.certs.push(indexOf(dss.certs, cert.raw));
      for (const crl of revocation?.crls ?? []) entry.crls.push(indexOf(dss.crls, crl));
      for (const ocsp of revocation?.ocsps ?? []) entry.ocsps.push(indexOf(dss.ocsps, ocsp));
      for (const name of revocation?.withoutSource ?? [])
        notes.add(
          `no revocation source: "${name}" names no OCSP responder and no CRL; its certificates are in the PDF`,
        );
    }
    dss.vri.push(entry);
  }
  return { dss, notes: [...notes] };
}

/** The certificate chains a signature rests on: its signer's, and its signature timestamp's. */
function chainsOf(signature: InspectedSignature): X509Certificate[][] {
  const toChain = (signer: InspectedCertificate | null, certificates: InspectedCertificate[]) => {
    const unique = [...new Map(certificates.map((cert) => [cert.sha256, cert])).values()];
    const all = unique.map((cert) => new X509Certificate(cert.pem));
    const first = all.findIndex(
      (cert) => signer && cert.fingerprint256.replaceAll(':', '').toLowerCase() === signer.sha256,
    );
    if (first > 0) all.unshift(...all.splice(first, 1));
    return all;
  };
  const chains = [toChain(signature.signer, signature.certificates)];
  if (signature.kind === 'signature' && signature.timestamp)
    chains.push(toChain(signature.timestamp.authority, signature.timestamp.certificates));
  return chains.filter((chain) => chain.length > 0);
}
