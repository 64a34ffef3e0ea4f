import { attachmentPath } from '../../shared/api/paths';
import { createHash } from 'node:crypto';
import { MAX_ATTACHMENTS_PER_CONTRACT } from '../../shared/constants';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { AttachmentRow } from '../db/repos/attachments';
import { AppError, notFound, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { findDraft } from './find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';

export type Upload = { name: string; contentType: string; bytes: Buffer };

export async function createAttachment(
  ctx: AppContext,
  contractId: number,
  upload: Upload,
  actor: Actor,
  origin: RequestOrigin,
): Promise<AttachmentRow> {
  if (upload.bytes.length === 0) throw validationFailed(['body: the attachment is empty']);
  return inTransaction(ctx.db, async () => {
    await findDraft(ctx, contractId, actor);
    if ((await ctx.repos.attachments.countInContract(contractId)) >= MAX_ATTACHMENTS_PER_CONTRACT) {
      throw new AppError('limit-reached', `A contract holds at most ${MAX_ATTACHMENTS_PER_CONTRACT} attachments.`);
    }
    const now = ctx.now();
    const attachment = await ctx.repos.attachments.insert({
      contractId,
      name: upload.name,
      contentType: upload.contentType,
      size: upload.bytes.length,
      fileId: await ctx.repos.files.putFile(upload.bytes, upload.contentType, now),
      createdBy: actor.id,
      createdAt: now,
    });
    const details = {
      name: upload.name,
      size: upload.bytes.length,
      sha256: createHash('sha256').update(upload.bytes).digest('hex'),
    };
    await logActivity(ctx, {
      contractId,
      event: 'attachment.added',
      subject: attachmentPath(attachment),
      userId: actor.id,
      details,
      ...origin,
    });
    return attachment;
  });
}

export async function deleteAttachment(
  ctx: AppContext,
  contractId: number,
  attachmentId: number,
  actor: Actor,
  origin: RequestOrigin,
): Promise<void> {
  await inTransaction(ctx.db, async () => {
    await findDraft(ctx, contractId, actor);
    const attachment = await ctx.repos.attachments.findInContract(contractId, attachmentId);
    if (!attachment) throw notFound('attachment');
    await ctx.repos.attachments.remove(attachmentId);
    await ctx.repos.files.releaseFile(attachment.fileId);
    await logActivity(ctx, {
      contractId,
      event: 'attachment.removed',
      subject: attachmentPath(attachment),
      userId: actor.id,
      details: { name: attachment.name },
      ...origin,
    });
  });
}
