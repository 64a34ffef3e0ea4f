import type { TBulkParty } from '../../shared/api/bulk-sends';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { Actor } from '../core/actor';
import type { JobOutcome } from '../jobs/runner';
import { AppError } from '../core/errors';
import { createContractFromPdfTemplate } from '../contracts/create-contract';
import { APPLIANCE_ORIGIN } from '../activity/log-activity';
import { sendInTransaction } from '../signing/send-contract';
import { createParty } from '../contracts/save-party';
import { findPdfTemplate } from '../templates/save-template-field';
import { actorOf } from '../policies/actors';

/** The user a batch acts as: its maker, as they are now (an inactive maker sends nothing more). */
async function makerOf(ctx: AppContext, userId: number): Promise<Actor> {
  const user = await ctx.repos.users.findById(userId);
  if (!user || !user.active) throw new AppError('forbidden', 'The user who made the bulk send is no longer active.');
  return actorOf(user);
}

/**
 * Makes and sends one row's contract: the template's PDF and fields, the row's parties (each
 * taking its role's fields), the send (sendInTransaction: the same checks and invitations as
 * an office's send); and marks the row sent. All one transaction, so
 * a crash at any point leaves the row pending (its job runs again) with nothing made, or sent
 * and done: never two contracts for one row. A row that cannot be sent is marked failed.
 */
export async function sendBulkRow(ctx: AppContext, rowId: number): Promise<JobOutcome> {
  try {
    await inTransaction(ctx.db, async () => {
      const row = await ctx.repos.bulkSends.findRow(rowId);
      if (!row || row.state !== 'pending') return;
      const batch = await ctx.repos.bulkSends.findById(row.bulkSendId);
      if (!batch || batch.templateId === null)
        throw new AppError('not-found', 'The template was deleted before this row was sent.');
      const actor = await makerOf(ctx, batch.createdBy);
      const template = await findPdfTemplate(ctx, batch.templateId, 'appliance');
      const contract = await createContractFromPdfTemplate(
        ctx,
        template,
        { name: row.contractName },
        { name: row.contractName },
        actor,
        APPLIANCE_ORIGIN,
      );
      for (const party of JSON.parse(row.parties) as TBulkParty[]) {
        const deliveryMethod = party.email ? 'EMAIL' : 'SMS';
        await createParty(
          ctx,
          contract.id,
          { name: party.name, email: party.email, mobile_phone: party.mobile_phone, delivery_method: deliveryMethod },
          actor,
          APPLIANCE_ORIGIN,
        );
      }
      const sent = await sendInTransaction(ctx, contract, actor, APPLIANCE_ORIGIN);
      await ctx.repos.bulkSends.updateRow(rowId, {
        state: 'sent',
        contractId: sent.id,
        error: null,
        updatedAt: ctx.now(),
      });
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const detail = [error.message, ...error.validationErrors].join(' ');
    await inTransaction(ctx.db, async () =>
      ctx.repos.bulkSends.updateRow(rowId, { state: 'failed', error: detail, updatedAt: ctx.now() }),
    );
  }
  ctx.outbox.wake();
  return { kind: 'done' };
}
