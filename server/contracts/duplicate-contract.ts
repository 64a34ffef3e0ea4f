import type { TContractDuplicate } from '../../shared/api/contract-actions';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import { findContract } from './find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { newLinkToken } from '../secrets/link-tokens';

/**
 * A new draft made from any contract the actor may see: its PDF and settings, its parties
 * (new links, no answers), their fields (no values), the template fields still waiting for a
 * party (a contract from a PDF template) and its attachments; the files are shared,
 * not copied. An `expire_time` already past is dropped. The copy's log starts with
 * `contract.created` naming the original as its subject. One transaction.
 */
export async function duplicateContract(
  ctx: AppContext,
  contractId: number,
  input: TContractDuplicate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  return inTransaction(ctx.db, async () => {
    const source = await findContract(ctx, contractId, actor);
    const now = ctx.now();
    const copy = await ctx.repos.contracts.insert({
      name: input.name ?? source.name,
      language: source.language,
      content: source.content,
      emailInviteContent: source.emailInviteContent,
      emailFromName: source.emailFromName,
      emailReplyTo: source.emailReplyTo,
      partyOrderDefined: source.partyOrderDefined,
      showIdentityNumber: source.showIdentityNumber,
      requireAuth: source.requireAuth,
      source: source.source,
      templateId: source.templateId,
      roleNames: source.roleNames,
      header: source.header,
      footer: source.footer,
      footerType: source.footerType,
      originalFileId: source.originalFileId,
      pageSizes: source.pageSizes,
      expireAt: source.expireAt !== null && source.expireAt > now ? source.expireAt : null,
      reminderIntervalDays: source.reminderIntervalDays,
      reminderMaxCount: source.reminderMaxCount,
      expiryWarningDays: source.expiryWarningDays,
      createdBy: actor.id,
      createdAt: now,
      updatedAt: now,
    });
    const partyIds = new Map<number, number>();
    for (const party of await ctx.repos.parties.listInContract(source.id)) {
      // A copy's party has a link of its own (only its hash and nonce stored).
      const link = newLinkToken(ctx);
      const made = await ctx.repos.parties.insert({
        contractId: copy.id,
        name: party.name,
        email: party.email,
        mobilePhone: party.mobilePhone,
        identityNumber: party.identityNumber,
        deliveryMethod: party.deliveryMethod,
        signType: party.signType,
        signOrder: party.signOrder,
        userId: party.userId,
        role: party.role,
        roleName: party.roleName,
        signTokenHash: link.hash,
        signNonce: link.nonce,
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      });
      partyIds.set(party.id, made.id);
    }
    for (const field of await ctx.repos.annotations.listInContract(source.id)) {
      const partyId = partyIds.get(field.partyId);
      if (partyId === undefined) continue;
      const { pdfPage, posX, posY, width, height, type, content, inputRequired, renderWhenSigned, tagBox } = field;
      const { label, hint, options } = field;
      await ctx.repos.annotations.insert({
        ...{ pdfPage, posX, posY, width, height, type, content, inputRequired, renderWhenSigned, tagBox },
        ...{ label, hint, options },
        contractId: copy.id,
        partyId,
        createdBy: actor.id,
        createdAt: now,
        updatedAt: now,
      });
    }
    const waiting = await ctx.repos.templateFields.listWaiting(source.id);
    await ctx.repos.templateFields.insertWaiting(
      waiting.map(({ id: _id, ...field }) => ({ ...field, contractId: copy.id })),
    );
    for (const attachment of await ctx.repos.attachments.listInContract(source.id)) {
      const { name, contentType, size, fileId } = attachment;
      await ctx.repos.attachments.insert({
        name,
        contentType,
        size,
        fileId,
        contractId: copy.id,
        createdBy: actor.id,
        createdAt: now,
      });
    }
    await logActivity(ctx, {
      contractId: copy.id,
      event: 'contract.created',
      subject: `/api/contracts/${source.id}`,
      userId: actor.id,
      details: { copy_of: `/api/contracts/${source.id}` },
      ...origin,
    });
    return copy;
  });
}
