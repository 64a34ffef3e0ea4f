import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import { findDraft } from './find-draft';
import { logOfficeEvent } from '../activity/office-log';

/**
 * Deletes a draft with its parties, annotations, attachments and log, and the files no one else
 * uses. The office log records it with the log's head: an office anchor may hold that log, and
 * the office's check then knows it was deleted here, not beneath SignDesk.
 */
export async function deleteContract(ctx: AppContext, id: number, actor: Actor): Promise<void> {
  await inTransaction(ctx.db, async () => {
    const contract = await findDraft(ctx, id, actor);
    const fileIds = [
      contract.originalFileId,
      ...(await ctx.repos.attachments.listInContract(id)).map((attachment) => attachment.fileId),
    ];
    const head = await ctx.repos.activity.head(id);
    await ctx.repos.contracts.remove(contract);
    await logOfficeEvent(ctx, {
      event: 'contract.deleted',
      subject: `/api/contracts/${id}`,
      userId: actor.id,
      details: { sequence: head?.sequence ?? 0, hash: head?.hash ?? '' },
    });
    for (const fileId of new Set(fileIds)) await ctx.repos.files.releaseFile(fileId);
  });
}
