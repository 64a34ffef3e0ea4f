import type { AppContext } from '../context/app-context';

/**
 * The contract's signed PDF becomes `bytes` (a later revision of the file: a document or archive
 * timestamp appended); the file it replaces is let go. Call inside the transaction that records why.
 */
export async function replaceSignedFile(
  ctx: AppContext,
  contractId: number,
  oldFileId: number,
  bytes: Buffer,
  now: number,
): Promise<void> {
  const fileId = await ctx.repos.files.putFile(bytes, 'application/pdf', now);
  await ctx.repos.contracts.update(contractId, { signedFileId: fileId, updatedAt: now });
  await ctx.repos.files.releaseFile(oldFileId);
}
