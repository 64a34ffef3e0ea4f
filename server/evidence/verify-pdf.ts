import type { TVerifyResult } from '../../shared/api/verify';
import type { AppContext } from '../context/app-context';
import type { InspectedPdf, InspectedSignature } from '../crypto/inspect-signatures';

const certificateSha256 = (ctx: AppContext) =>
  ctx.seal.identity().certificate.fingerprint256.replaceAll(':', '').toLowerCase();

/**
 * The verify page's judgement of a PDF, from its signatures (read in the sandbox): whether this
 * appliance sealed it (its sealed part is byte for byte a PDF sealed here), whether anything
 * changed since (bytes after the seal that are not the appliance's own document timestamp), and
 * its timestamps. The contract's name and parties are told only for an exact match.
 */
export function judgePdf(ctx: AppContext, inspected: InspectedPdf): TVerifyResult {
  const result: TVerifyResult = {
    verdict: inspected.isPdf ? 'not-sealed-here' : 'not-pdf',
    sha256: inspected.sha256,
    size: inspected.size,
    contract: null,
    seal: null,
    added_bytes: 0,
    timestamps: [],
    has_newer_copy: false,
    is_container_changed: false,
    other_signatures: 0,
  };
  const signatures = inspected.signatures.filter((signature) => signature.kind === 'signature');
  let seal: InspectedSignature | undefined;
  let sealRow;
  // The file as sealed here (its prefix), else the very bytes a seal here signed, in a file changed around them.
  for (const signature of signatures) {
    sealRow = ctx.repos.seals.findBySealedSha256(signature.signedSha256)[0];
    if (!sealRow && signature.problem === null)
      sealRow = ctx.repos.seals.findBySealedContent(signature.signedContentSha256)[0];
    if (sealRow) {
      seal = signature;
      break;
    }
  }
  const isOurs = (signature: InspectedSignature) =>
    signature.signer !== null &&
    (signature.signer.sha256 === certificateSha256(ctx) || ctx.repos.seals.isSealCertificate(signature.signer.sha256));
  seal ??= signatures.find(isOurs);
  result.other_signatures = signatures.filter((signature) => signature !== seal).length;
  if (!seal) return result;

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

  const contract = ctx.repos.contracts.findById(sealRow.contractId);
  const current = contract?.signedFileId ? ctx.repos.files.getFile(contract.signedFileId) : undefined;
  const isIssuedCopy = current?.sha256 === inspected.sha256;
  const isAsSealed = seal.signedSha256 === sealRow.sealedSha256 && seal.signedLength === inspected.size;
  result.verdict =
    seal.problem === null && (isIssuedCopy || isAsSealed) ? 'intact' : seal.problem === null ? 'changed' : 'broken';
  result.added_bytes = isIssuedCopy ? 0 : inspected.size - seal.signedLength;
  result.is_container_changed = seal.signedSha256 !== sealRow.sealedSha256;
  result.has_newer_copy = isAsSealed && current !== undefined && !isIssuedCopy;
  for (const stamp of inspected.signatures) {
    if (stamp.kind === 'document-timestamp' && stamp.signedLength > seal.signedLength && stamp.timestamp)
      result.timestamps.push(timestampOf('document', stamp.timestamp));
  }
  if (contract && result.verdict !== 'broken') {
    const parties = ctx.repos.parties.listInContract(contract.id);
    result.contract = {
      name: contract.name || `Contract ${contract.id}`,
      parties: parties.map((party) => ({ name: party.name, role: party.signType })),
      signed_time: contract.signedAt === null ? null : new Date(contract.signedAt).toISOString(),
    };
  }
  return result;
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
