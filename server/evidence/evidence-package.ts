import type { Language } from '../../shared/api/enums';
import { createHash } from 'node:crypto';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { activityPresenter } from '../activity/present-activity';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { derChildren } from '../crypto/der';
import type { ContractRow } from '../db/repos/contracts';
import { signerInfoPath } from './timestamps/signature-timestamp';
import { withoutCredentials } from './timestamps/tsa-settings';
import { CHAIN_VERSION, canonicalEntry, type StoredChainEntry } from '../activity/activity-chain';
import { storedChainEntryOf } from '../activity/contract-chain';
import { verifyContractLog, type LogVerification } from './anchors/verify-log';
import { anchorEvidence } from './anchors/anchor-evidence';
import { attachedFileOf } from '../db/repos/attached-file';
import { evidenceReadme, type ReadmeFacts } from './evidence-readme';
import type { InspectedCertificate } from '../crypto/inspect-signatures';
import { validationDataFiles } from './validation-data';

const PDF = 'signed.pdf';

/**
 * One signed contract's evidence as a zip: the signed PDF, the activity log with its chain (and
 * each entry's hashed bytes), the seal's certificate, chain and CMS, the timestamp tokens and the
 * authority's certificate, a README.txt saying how to check all of it offline, and SHA256SUMS.
 * Certificates and tokens are taken from the PDF itself, not from the appliance's settings.
 */
export async function makeEvidencePackage(ctx: AppContext, contract: ContractRow): Promise<Uint8Array> {
  const seal = await ctx.repos.seals.find(contract.id);
  const file =
    contract.status === 'signed' && contract.signedFileId !== null
      ? await ctx.repos.files.getFile(contract.signedFileId)
      : undefined;
  if (!seal || !file)
    throw new AppError(
      'contract-state',
      `Contract /api/contracts/${contract.id} is ${contract.status}; its evidence exists once every party has signed.`,
    );
  const inspected = await ctx.pdf.run('inspect-signatures', { bytes: file.data });
  const sealSignature =
    inspected.signatures.find(
      (signature) => signature.kind === 'signature' && signature.signedSha256 === seal.sealedSha256,
    ) ?? inspected.signatures.find((signature) => signature.kind === 'signature');
  if (!sealSignature?.cms || !sealSignature.signer)
    throw new Error(`contract ${contract.id}: the signed PDF has no readable seal`);

  const files: Record<string, Uint8Array> = { [PDF]: file.data };
  const text = (name: string, value: string) => (files[name] = strToU8(value));
  const pem = (certificates: InspectedCertificate[]) => certificates.map((cert) => cert.pem).join('');

  text('seal-certificate.pem', sealSignature.signer.pem);
  text('seal-chain.pem', pem(sealSignature.certificates));
  files['seal-signature.p7s'] = sealSignature.cms;
  const tsaCertificates = new Map<string, InspectedCertificate>();
  let signatureAt: ReadmeFacts['seal']['signatureAt'] = null;
  if (sealSignature.timestamp && sealSignature.signatureValue) {
    files['seal-signature-value.bin'] = sealSignature.signatureValue;
    files['signature-timestamp.tst'] = sealSignature.timestamp.token;
    for (const cert of sealSignature.timestamp.certificates) tsaCertificates.set(cert.sha256, cert);
    signatureAt = signatureValueAt(sealSignature.cms);
  }
  const documentStamps = inspected.signatures
    .map((signature, index) => ({ signature, index }))
    .filter(
      ({ signature }) =>
        signature.kind === 'document-timestamp' &&
        signature.signedLength > sealSignature.signedLength &&
        signature.timestamp,
    );
  const documentTimestamps = documentStamps.map(({ signature, index }, position) => {
    const stamp = signature.timestamp!;
    const name = documentStamps.length === 1 ? 'document-timestamp.tst' : `document-timestamp-${position + 1}.tst`;
    files[name] = stamp.token;
    for (const cert of stamp.certificates) tsaCertificates.set(cert.sha256, cert);
    return {
      file: name,
      byteRange: signature.byteRange,
      genTime: stamp.genTime,
      authority: stamp.authority?.subject ?? '',
      signatureIndex: index,
      tokenLength: stamp.token.length,
    };
  });
  if (tsaCertificates.size > 0) text('tsa-certificate.pem', pem([...tsaCertificates.values()]));
  // The DSS, each item with the document timestamp that first covers it (the archive timestamps' walk).
  const dssItems = await ctx.pdf.run('read-dss', {
    bytes: file.data,
    ends: documentStamps.map(({ signature }) => signature.signedLength),
  });
  const validationData = validationDataFiles(
    dssItems,
    new Set(tsaCertificates.keys()),
    documentTimestamps.map((stamp) => stamp.file),
  );
  Object.assign(files, validationData.files);

  // The files parties attached to ATTACHMENT fields, as they gave them (their hashes are on the audit page).
  for (const annotation of await ctx.repos.annotations.listInContract(contract.id)) {
    const attached = await attachedFileOf(ctx.repos, annotation);
    if (attached) files[`party-files/${annotation.id}-${attached.name.replace(/[/\\]/g, '_')}`] = attached.file.data;
  }
  const rows = await ctx.repos.activity.listChain(contract.id);
  const check = await verifyContractLog(ctx, contract.id);
  const anchors = anchorEvidence(`/api/contracts/${contract.id}`, check);
  Object.assign(files, anchors.files);
  const entries = rows.map(storedChainEntryOf);
  for (const entry of entries)
    text(`activity-chain/${String(entry.sequence).padStart(4, '0')}.json`, canonicalEntry(entry));
  text(
    'activity-chain.sha256',
    entries.map((entry) => `${entry.hash}  activity-chain/${String(entry.sequence).padStart(4, '0')}.json\n`).join(''),
  );
  const present = await activityPresenter(ctx, contract.id);
  const presented = [];
  for (const row of rows) presented.push(await present(row));
  text(
    'activity-log.json',
    `${JSON.stringify(logDocument(ctx, contract, presented, entries, check, seal), null, 2)}\n`,
  );

  const facts: ReadmeFacts = {
    language: contract.language as Language,
    contractId: contract.id,
    contractName: contract.name || `Contract ${contract.id}`,
    madeAt: new Date(ctx.now()).toISOString(),
    pdf: PDF,
    pdfSize: file.data.length,
    seal: {
      byteRange: sealSignature.byteRange,
      sealedLength: sealSignature.signedLength,
      sealedSha256: sealSignature.signedSha256,
      cmsLength: sealSignature.cms.length,
      certificateSha256Colons: sealSignature.signer.sha256.toUpperCase().replace(/(..)(?!$)/g, '$1:'),
      subject: sealSignature.signer.subject.replaceAll('\\,', ','),
      signatureAt,
    },
    signatureTimestamp: sealSignature.timestamp
      ? { genTime: sealSignature.timestamp.genTime, authority: sealSignature.timestamp.authority?.subject ?? '' }
      : null,
    documentTimestamps,
    chain: {
      entries: entries.length,
      head: check.head,
      sealedHead:
        seal.chainHeadSequence != null && seal.chainHeadHash
          ? { sequence: seal.chainHeadSequence, hash: seal.chainHeadHash }
          : null,
      isIntact: check.isIntact,
    },
    hasTsaCertificate: tsaCertificates.size > 0,
    hasPartyFiles: Object.keys(files).some((name) => name.startsWith('party-files/')),
    anchors: anchors.facts,
    validationData: validationData.facts,
  };
  text('README.txt', evidenceReadme(facts));
  text(
    'SHA256SUMS',
    Object.keys(files)
      .sort()
      .map((name) => `${createHash('sha256').update(files[name]!).digest('hex')}  ${name}\n`)
      .join(''),
  );

  const zippable: Zippable = {};
  for (const [name, bytes] of Object.entries(files))
    zippable[`contract-${contract.id}-evidence/${name}`] = [
      bytes,
      { level: name.endsWith('.pdf') ? 0 : 6, mtime: new Date(ctx.now()) },
    ];
  return zipSync(zippable);
}

/** The log as the API shows it, with what a reader needs to recompute it. */
function logDocument(
  ctx: AppContext,
  contract: ContractRow,
  apiEntries: unknown[],
  entries: StoredChainEntry[],
  check: LogVerification,
  seal: NonNullable<Awaited<ReturnType<AppContext['repos']['seals']['find']>>>,
) {
  return {
    contract: `/api/contracts/${contract.id}`,
    algorithm: {
      name: CHAIN_VERSION,
      hash: 'SHA-256, lower-case hex, of the UTF-8 bytes of the canonical form',
      canonical_form:
        'JSON array ["signdesk-activity-v1", contract, sequence, recorded, event, subject, user or "", user_agent, ip_address, details (keys sorted), previous_hash], no spaces, where recorded is recorded_ms in UTC as YYYY-MM-DDTHH:MM:SS.mmmZ; JavaScript JSON.stringify, or Python json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)',
      first_previous_hash: '0'.repeat(64),
    },
    sealed_head: seal.chainHeadSequence == null ? null : { sequence: seal.chainHeadSequence, hash: seal.chainHeadHash },
    timestamp: {
      status: seal.timestampStatus,
      authority: seal.tsaUrl ? withoutCredentials(seal.tsaUrl) : null,
      time: seal.timestampTime === null ? null : new Date(seal.timestampTime).toISOString(),
    },
    check: {
      is_intact: check.isIntact,
      entry_count: check.entryCount,
      head: check.head,
      proven_through_sequence: check.proofs.at(-1)?.throughSequence ?? 0,
      proofs: check.proofs.map((proof) => ({
        anchor: proof.anchor,
        through_sequence: proof.throughSequence,
        authority_time: new Date(proof.authorityTime).toISOString(),
        authority: proof.authority,
      })),
      problems: check.problems,
    },
    entries: apiEntries,
    canonical: entries.map((entry) => canonicalEntry(entry)),
    time_zone: ctx.config.timeZone,
  };
}

/** Where the signature value sits in the seal's CMS (for `openssl asn1parse` and `tail | head`). */
function signatureValueAt(cms: Uint8Array): { offset: number; headerLength: number; length: number } {
  const signerInfo = signerInfoPath(cms).at(-1)!;
  const children = derChildren(cms, signerInfo);
  const signature = children.find(
    (child, index) => child.tag === 0x04 && (index === children.length - 1 || children[index + 1]!.tag === 0xa1),
  )!;
  return { offset: signature.start, headerLength: signature.headerLength, length: signature.length };
}
