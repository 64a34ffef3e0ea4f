import type { AppContext } from '../core/context';
import { inTransaction } from '../db/open-database';
import { findDraft } from './find-draft';

/** Deletes a draft with its parties, annotations, attachments and log, and the files no one else uses. */
export function deleteContract(ctx: AppContext, id: number): void {
  inTransaction(ctx.db, () => {
    const contract = findDraft(ctx, id);
    const fileIds = [contract.originalFileId, ...ctx.repos.attachments.listInContract(id).map((attachment) => attachment.fileId)];
    ctx.repos.contracts.remove(contract);
    for (const fileId of new Set(fileIds)) ctx.repos.files.releaseFile(fileId);
  });
}
