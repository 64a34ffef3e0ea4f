import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import { findDraft } from './find-draft';

/** Deletes a draft with its parties, annotations, attachments and log, and the files no one else uses. */
export async function deleteContract(ctx: AppContext, id: number, actor: Actor): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, id, actor);
    const fileIds = [
      contract.originalFileId,
      ...(await ctx.repos.attachments.listInContract(id)).map((attachment) => attachment.fileId),
    ];
    await ctx.repos.contracts.remove(contract);
    for (const fileId of new Set(fileIds)) await ctx.repos.files.releaseFile(fileId);
  });
}
