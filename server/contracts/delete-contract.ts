import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import { findDraft } from './find-draft';

/** Deletes a draft with its parties, annotations, attachments and log, and the files no one else uses. */
export function deleteContract(ctx: AppContext, id: number, actor: Actor): void {
  inTransaction(ctx.db, () => {
    const contract = findDraft(ctx, id, actor);
    const fileIds = [
      contract.originalFileId,
      ...ctx.repos.attachments.listInContract(id).map((attachment) => attachment.fileId),
    ];
    ctx.repos.contracts.remove(contract);
    for (const fileId of new Set(fileIds)) ctx.repos.files.releaseFile(fileId);
  });
}
