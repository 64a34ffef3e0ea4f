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

export function createAttachment(
  ctx: AppContext,
  contractId: number,
  upload: Upload,
  actor: Actor,
  origin: RequestOrigin,
): AttachmentRow {
  if (upload.bytes.length === 0) throw validationFailed(['body: the attachment is empty']);
  return inTransaction(ctx.db, () => {
    findDraft(ctx, contractId, actor);
    if (ctx.repos.attachments.countInContract(contractId) >= MAX_ATTACHMENTS_PER_CONTRACT) {
      throw new AppError('limit-reached', `A contract holds at most ${MAX_ATTACHMENTS_PER_CONTRACT} attachments.`);
    }
    const now = ctx.now();
    const attachment = ctx.repos.attachments.insert({
      contractId,
      name: upload.name,
      contentType: upload.contentType,
      size: upload.bytes.length,
      fileId: ctx.repos.files.putFile(upload.bytes, upload.contentType, now),
      createdBy: actor.id,
      createdAt: now,
    });
    const details = {
      name: upload.name,
      size: upload.bytes.length,
      sha256: createHash('sha256').update(upload.bytes).digest('hex'),
    };
    logActivity(ctx, {
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

export function deleteAttachment(
  ctx: AppContext,
  contractId: number,
  attachmentId: number,
  actor: Actor,
  origin: RequestOrigin,
): void {
  inTransaction(ctx.db, () => {
    findDraft(ctx, contractId, actor);
    const attachment = ctx.repos.attachments.findInContract(contractId, attachmentId);
    if (!attachment) throw notFound('attachment');
    ctx.repos.attachments.remove(attachmentId);
    ctx.repos.files.releaseFile(attachment.fileId);
    logActivity(ctx, {
      contractId,
      event: 'attachment.removed',
      subject: attachmentPath(attachment),
      userId: actor.id,
      details: { name: attachment.name },
      ...origin,
    });
  });
}
