import { createHash } from 'node:crypto';
import type { TVerifyResult } from '../../shared/api/verify';
import type { AppContext } from '../context/app-context';
import type { ContractSealRow } from '../db/repos/contract-seals';
import type { UpdatesAfterSeal } from '../pdf/check-updates-after-seal';
import type { InspectedPdf, InspectedSignature } from '../crypto/inspect-signatures';

const certificateSha256 = async (ctx: AppContext) =>
  (await ctx.seal.identity()).certificate.fingerprint256.replaceAll(':', '').toLowerCase();

/**
 * The verify page's judgement of a PDF (docs/decisions.md, "The verify page"): its signatures
 * are read in the sandbox, the seal of this office is found by what it signs (the bytes of its
 * byte range, or, in a file another program saved again, the digest its signature container
 * names), and what follows the seal is judged by the structural rule. The contract's name and
 * parties are told only when the file holds the very bytes (or pages) this office sealed.
 */
export async function verifyPdf(
  ctx: AppContext,
  bytes: Uint8Array,
  /** Whose check it is in the PDF sandbox's turns (`verify:<address>`: the internet's budget). */
  source?: string,
): Promise<TVerifyResult> {
  const inspected = await ctx.pdf.run('inspect-signatures', { bytes }, { source: source ?? 'office' });
  const result: TVerifyResult = {
    verdict: inspected.isPdf ? 'not-sealed-here' : 'not-pdf',
    office: { name: (await ctx.repos.office.get(ctx.now())).name },
    sha256: inspected.sha256,
    size: inspected.size,
    contract: null,
    seal: null,
    added_bytes: 0,
    timestamps: [],
    has_newer_copy: false,
    is_container_changed: false,
    additions: [],
    changes: [],
    other_signatures: 0,
  };
  const signatures = inspected.signatures.filter((signature) => signature.kind !== 'document-timestamp');
  let seal: InspectedSignature | undefined;
  let sealRow: ContractSealRow | undefined;
  // The file as sealed here (its prefix), else the very bytes a seal here signed, in a file changed around them.
  for (const signature of signatures) {
    sealRow =
      (await ctx.repos.seals.findBySealedSha256(signature.signedSha256))[0] ??
      (await ctx.repos.seals.findBySealedContent(signature.signedContentSha256))[0];
    if (sealRow) {
      seal = signature;
      break;
    }
  }
  const isOurs = async (sha256: string | undefined) =>
    sha256 !== undefined &&
    (sha256 === (await certificateSha256(ctx)) || (await ctx.repos.seals.isSealCertificate(sha256)));
  for (const signature of signatures) {
    if (seal) break;
    if (signature.kind === 'signature' && (await isOurs(signature.signer?.sha256))) seal = signature;
  }
  result.other_signatures = signatures.filter(
    (signature) => signature !== seal && signature.kind === 'signature',
  ).length;
  if (!seal) return judgeLoose(ctx, bytes, inspected, result);

  result.seal = {
    subject: seal.signer?.subject ?? '',
    certificate_sha256: seal.signer?.sha256 ?? '',
    is_valid: seal.problem === null,
    problem: seal.problem,
  };
  if (seal.timestamp) result.timestamps.push(timestampOf('signature', seal.timestamp));
  if (!sealRow) {
    result.verdict = seal.problem === null ? 'unknown-seal' : 'broken';
    return result;
  }
  const current = await currentCopy(ctx, sealRow);
  result.has_newer_copy =
    current !== undefined &&
    current.length > bytes.length &&
    sha256(current.subarray(0, bytes.length)) === result.sha256;
  result.added_bytes = inspected.size - seal.signedLength;
  result.is_container_changed = seal.signedSha256 !== sealRow.sealedSha256;
  for (const stamp of inspected.signatures) {
    if (stamp.kind === 'document-timestamp' && stamp.signedLength > seal.signedLength && stamp.timestamp)
      result.timestamps.push(timestampOf('document', stamp.timestamp));
  }
  // The contract and its parties are named only for the very PDF sealed here (as sealed, with
  // validation data added, or its seal's container damaged around the very bytes it signed):
  // never for a copy changed after the seal, which anyone could have made from a leaked one.
  if (seal.problem !== null) {
    // What it signs is exactly what was sealed here: only the signature container is damaged.
    result.verdict = 'damaged';
    await showContract(ctx, result, sealRow);
    return result;
  }
  if (result.is_container_changed) {
    result.verdict = 'changed';
    return result;
  }
  if (result.added_bytes === 0) {
    result.verdict = 'intact';
    await showContract(ctx, result, sealRow);
    return result;
  }
  const rule = await ctx.pdf
    .run('check-updates-after-seal', { bytes, sealedLength: seal.signedLength })
    .catch((error: unknown) => ({
      isAllowed: false,
      updates: [],
      problems: [`what follows the seal cannot be read (${error instanceof Error ? error.message : String(error)})`],
    }));
  result.additions = additionsOf(rule, inspected);
  result.changes = rule.problems;
  result.verdict = rule.isAllowed ? 'extended' : 'changed';
  if (rule.isAllowed) await showContract(ctx, result, sealRow);
  return result;
}

/**
 * No sound byte range frames a seal of this office: a signature container of this office's
 * that names the digest of a contract sealed here means the file was saved again by another
 * program (same pages) or changed (other pages).
 */
async function judgeLoose(
  ctx: AppContext,
  bytes: Uint8Array,
  inspected: InspectedPdf,
  result: TVerifyResult,
): Promise<TVerifyResult> {
  for (const loose of inspected.loose) {
    if (loose.problem !== null) continue;
    const sealRow = (await ctx.repos.seals.findBySealedContent(loose.messageDigest))[0];
    const current = sealRow ? await currentCopy(ctx, sealRow) : undefined;
    if (!sealRow || !current) continue;
    result.seal = {
      subject: loose.signer?.subject ?? '',
      certificate_sha256: loose.signer?.sha256 ?? '',
      is_valid: false,
      problem: 'the seal does not cover this file: its byte range no longer frames it',
    };
    const pages = await ctx.pdf
      .run('compare-pages', { a: current.subarray(0, sealRow.sealedSize), b: bytes })
      .catch(() => ({ isSame: false }));
    if (!pages.isSame) {
      result.verdict = 'broken';
      return result;
    }
    result.verdict = 'same-pages';
    await showContract(ctx, result, sealRow);
    return result;
  }
  return result;
}

async function currentCopy(ctx: AppContext, sealRow: ContractSealRow): Promise<Buffer | undefined> {
  const contract = await ctx.repos.contracts.findById(sealRow.contractId);
  return contract?.signedFileId ? (await ctx.repos.files.getFile(contract.signedFileId))?.data : undefined;
}

async function showContract(ctx: AppContext, result: TVerifyResult, sealRow: ContractSealRow): Promise<void> {
  const contract = await ctx.repos.contracts.findById(sealRow.contractId);
  if (!contract) return;
  const parties = await ctx.repos.parties.listInContract(contract.id);
  result.contract = {
    name: contract.name || `Contract ${contract.id}`,
    parties: parties.map((party) => ({ name: party.name, role: party.signType })),
    signed_time: contract.signedAt === null ? null : new Date(contract.signedAt).toISOString(),
  };
}

/** Each update after the seal, with the first valid document timestamp that covers it (its authority vouches for it). */
function additionsOf(rule: UpdatesAfterSeal, inspected: InspectedPdf): TVerifyResult['additions'] {
  return rule.updates.map((update) => {
    const cover = inspected.signatures.find(
      (stamp) =>
        stamp.kind === 'document-timestamp' &&
        stamp.problem === null &&
        stamp.signedLength >= update.end &&
        stamp.timestamp !== null,
    );
    return {
      timestamps: update.addedTimestamps,
      validation_data: update.changesValidationData,
      signed_by: cover?.timestamp?.authority?.subject ?? null,
      signed_time: cover?.timestamp?.genTime ?? null,
    };
  });
}

function timestampOf(
  kind: 'signature' | 'document',
  stamp: NonNullable<InspectedSignature['timestamp']>,
): TVerifyResult['timestamps'][number] {
  return {
    kind,
    time: stamp.genTime,
    authority: stamp.authority?.subject ?? '',
    is_valid: stamp.problem === null,
    problem: stamp.problem,
  };
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
