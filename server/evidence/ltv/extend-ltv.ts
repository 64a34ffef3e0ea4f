import { createHash, X509Certificate } from 'node:crypto';
import { checkRevision, replaceSignedFile, type CheckedRevision } from '../replace-signed-file';
import { refuseSealJob, retrySealJob } from '../seal-retry';
import type { AppContext } from '../../context/app-context';
import { inTransaction } from '../../db/open-database';
import type { JobOutcome } from '../../jobs/runner';
import type { DssData } from '../../pdf/dss-objects';
import type { InspectedCertificate, InspectedPdf, InspectedSignature } from '../../crypto/inspect-signatures';
import { logTimestamped } from '../record-seal';
import { stampDocument } from '../timestamps/stamp-document';
import { readTsaUrl } from '../timestamps/tsa-settings';
import { fetchRevocation, RevocationUnavailable } from './fetch-revocation';
import { LTV_QUEUE } from './ltv-queue';

/**
 * The job that takes a timestamped contract to PAdES B-LTA: the certificates of the seal's chain
 * and of every timestamp authority's chain in the signed PDF, their revocation data (OCSP and
 * CRLs, fetched now), written into the DSS with a /VRI entry per signature, and a document
 * timestamp over it all (the archive timestamp), in one incremental update that the structural
 * rule must pass before the file replaces the signed PDF. The same job renews the archive
 * timestamp (archive-renewal.ts queues it): the newest timestamp's chain gets its revocation
 * data and a new timestamp covers it. While anything cannot be had, it is tried again on
 * TSA_RETRY_SCHEDULE_S and the contract shows `ltv_status: pending` with the cause.
 */
export async function extendContractLtv(
  ctx: AppContext,
  contractId: number,
  attempt: number,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const seal = await ctx.repos.seals.find(contractId);
  const contract = await ctx.repos.contracts.findById(contractId);
  if (!seal || seal.ltvStatus !== 'pending' || !contract?.signedFileId) return { kind: 'done' };
  if (seal.timestampStatus === 'pending')
    return retry(ctx, contractId, attempt, 'the first timestamp is still pending');
  const tsaUrl = (await readTsaUrl(ctx)).url ?? seal.tsaUrl;
  if (!tsaUrl) return retry(ctx, contractId, attempt, 'no timestamp authority is configured');
  const file = await ctx.repos.files.getFile(contract.signedFileId);
  if (!file) return { kind: 'failed', error: 'the signed PDF is missing' };

  let stamped: Awaited<ReturnType<typeof stampDocument>>;
  try {
    const inspected = await ctx.pdf.run('inspect-signatures', { bytes: file.data });
    const dss = await gatherValidationData(ctx, inspected, { isRenewal: seal.archiveTime !== null, signal });
    stamped = await stampDocument(ctx, tsaUrl, file.data, { signal, dss });
  } catch (error) {
    return retry(ctx, contractId, attempt, error instanceof Error ? error.message : String(error));
  }
  let revision: CheckedRevision;
  try {
    revision = await checkRevision(ctx, seal, stamped.bytes);
  } catch (error) {
    return refuseSealJob(ctx, contractId, error, (message) => ({ ltvError: message }));
  }

  const { token } = stamped;
  const now = ctx.now();
  await inTransaction(ctx.db, async () => {
    const current = await ctx.repos.seals.find(contractId);
    const latest = await ctx.repos.contracts.findById(contractId);
    if (current?.ltvStatus !== 'pending' || latest?.signedFileId !== file.id) return;
    await replaceSignedFile(ctx, contractId, file.id, revision, now);
    await ctx.repos.seals.update(contractId, {
      ltvStatus: 'done',
      ltvAttempts: current.ltvAttempts + 1,
      ltvError: null,
      archiveTime: token.genTime.getTime(),
      archiveExpiresAt: Date.parse(token.signer.validTo),
      updatedAt: now,
    });
    await logTimestamped(ctx, contractId, {
      kind: 'archive',
      tsaUrl,
      authority: token.signer.subject,
      genTime: token.genTime,
      clockOffsetMs: token.clockOffsetMs,
    });
  });
  ctx.logger.info(
    { contractId, sha256: createHash('sha256').update(stamped.bytes).digest('hex') },
    'timestamps: validation data and an archive timestamp appended (PAdES B-LTA)',
  );
  return { kind: 'done' };
}

/** Puts a signed contract in line for validation data and an archive timestamp (call in the transaction that makes it due). */
export async function queueLtv(ctx: AppContext, contractId: number, at: number): Promise<void> {
  await ctx.repos.seals.update(contractId, { ltvStatus: 'pending', ltvError: null, updatedAt: ctx.now() });
  await ctx.repos.jobs.plan(LTV_QUEUE, contractId, at, ctx.now());
}

/**
 * The DSS contents for every signature of the file: each one's certificates (the seal's, and
 * those its timestamp and every document timestamp carry) and their revocation data. At a
 * renewal only the newest signature (the last archive timestamp) must get fresh revocation data:
 * the older ones got theirs when they were new, and their CAs' servers may be long gone.
 */
async function gatherValidationData(
  ctx: AppContext,
  inspected: InspectedPdf,
  options: { isRenewal: boolean; signal: AbortSignal },
): Promise<DssData> {
  const { signal } = options;
  const newest = inspected.signatures.at(-1);
  const dss: DssData = { certs: [], crls: [], ocsps: [], vri: [] };
  const indexOf = (list: Uint8Array[], item: Buffer) => {
    const at = list.findIndex((known) => item.equals(known));
    if (at >= 0) return at;
    list.push(item);
    return list.length - 1;
  };
  const fetched = new Map<string, Awaited<ReturnType<typeof fetchRevocation>>>();
  for (const signature of inspected.signatures) {
    if (signature.kind === 'unreadable' || signature.problem !== null) continue;
    const entry = { key: signature.contentsSha1, certs: [] as number[], crls: [] as number[], ocsps: [] as number[] };
    for (const chain of chainsOf(signature)) {
      const key = chain.map((cert) => cert.fingerprint256).join('/');
      let revocation = fetched.get(key);
      if (!revocation) {
        try {
          revocation = await fetchRevocation(ctx, chain, signal);
        } catch (error) {
          if (!options.isRenewal || signature === newest || !(error instanceof RevocationUnavailable)) throw error;
          ctx.logger.info(
            { err: error.message },
            'timestamps: no fresh revocation data for an older signature; the DSS keeps what it has',
          );
          revocation = { crls: [], ocsps: [] };
        }
        fetched.set(key, revocation);
      }
      for (const cert of chain) entry.certs.push(indexOf(dss.certs, cert.raw));
      for (const crl of revocation.crls) entry.crls.push(indexOf(dss.crls, crl));
      for (const ocsp of revocation.ocsps) entry.ocsps.push(indexOf(dss.ocsps, ocsp));
    }
    dss.vri.push(entry);
  }
  return dss;
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

async function retry(ctx: AppContext, contractId: number, attempt: number, error: string): Promise<JobOutcome> {
  return retrySealJob(
    ctx,
    { contractId, attempt, error, message: 'timestamps: validation data or archive timestamp still pending' },
    (seal) => ({ ltvAttempts: seal.ltvAttempts + 1, ltvError: error }),
  );
}
