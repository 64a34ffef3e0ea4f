import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context';
import type { ContractSealRow } from '../db/repos/contract-seals';

declare const checked: unique symbol;

/** A later revision of a contract's signed PDF that passed `checkRevision`: nothing else makes one. */
export type CheckedRevision = { readonly bytes: Buffer; readonly [checked]: true };

/** Why a new revision may not replace the signed PDF: the job stops (no retry makes it right). */
export class RevisionRefused extends Error {
  override name = 'RevisionRefused';
}

/**
 * The one guard before a contract's signed PDF is replaced (a document timestamp after an
 * outage, validation data and an archive timestamp): the new file must begin with the exact
 * bytes sealed here, and every update after them must pass the structural rule of what may
 * follow the seal (docs/decisions.md). A file changed behind the appliance's back (an insider
 * who swapped the stored PDF) would otherwise get the authority's timestamp over the change.
 */
export async function checkRevision(ctx: AppContext, seal: ContractSealRow, bytes: Buffer): Promise<CheckedRevision> {
  const sealed = bytes.subarray(0, seal.sealedSize);
  if (sealed.length !== seal.sealedSize || createHash('sha256').update(sealed).digest('hex') !== seal.sealedSha256)
    throw new RevisionRefused('the new PDF does not begin with the bytes sealed here');
  const rule = await ctx.pdf.run('check-updates-after-seal', { bytes, sealedLength: seal.sealedSize });
  if (!rule.isAllowed) throw new RevisionRefused(`the new PDF breaks the seal: ${rule.problems.join('; ')}`);
  return { bytes } as CheckedRevision;
}

/**
 * The contract's signed PDF becomes `revision` (a later revision of the file: a document or
 * archive timestamp appended); the file it replaces is let go. Call inside the transaction that
 * records why.
 */
export async function replaceSignedFile(
  ctx: AppContext,
  contractId: number,
  oldFileId: number,
  revision: CheckedRevision,
  now: number,
): Promise<void> {
  const fileId = await ctx.repos.files.putFile(revision.bytes, 'application/pdf', now);
  await ctx.repos.contracts.update(contractId, { signedFileId: fileId, updatedAt: now });
  await ctx.repos.files.releaseFile(oldFileId);
}
