import type { TContractWithdraw } from '../../shared/api/contract-actions';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import type { Actor } from '../core/actor';
import { planReminders } from './plan-reminders';
import { channelDetails, enqueuePartyMessage } from './party-messages';
import { findContract } from '../contracts/find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { partyPath } from '../../shared/api/paths';

/**
 * Withdraws a contract that is out for signing: its links close at once (answers 409, the
 * signing page says it was withdrawn), its reminders stop, and, unless `silent`, every party
 * that was sent the contract hears of it by its delivery method. The status stays `sent`
 * (the interface's states), with `withdrawn_time` set; no webhook event. One transaction.
 */
export async function withdrawContract(
  ctx: AppContext,
  contractId: number,
  input: TContractWithdraw,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  return inTransaction(ctx.db, async () => {
    const contract = await findContract(ctx, contractId, actor);
    if (contract.status === 'draft') {
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} is a draft: nobody has it yet. Delete it instead.`,
      );
    }
    if (contract.status !== 'sent') {
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} is ${contract.status}; only a contract out for signing can be withdrawn.`,
      );
    }
    if (contract.withdrawnAt !== null)
      throw new AppError('contract-state', `Contract /api/contracts/${contract.id} is already withdrawn.`);
    const now = ctx.now();
    const reason = input.reason?.trim() || null;
    const withdrawn =
      (await ctx.repos.contracts.update(contract.id, {
        withdrawnAt: now,
        withdrawnBy: actor.id,
        withdrawReason: reason,
        updatedAt: now,
      })) ?? contract;
    await logActivity(ctx, {
      contractId: contract.id,
      event: 'contract.withdrawn',
      userId: actor.id,
      details: { reason },
      time: now,
      ...origin,
    });
    // Those who were sent the contract (signed or not, viewers too) learn that their link is closed.
    for (const party of await ctx.repos.parties.listInContract(contract.id)) {
      if (party.invitedAt === null) continue;
      const channels = input.silent
        ? []
        : await enqueuePartyMessage(ctx, 'withdrawn', withdrawn, party, { reason: reason ?? undefined });
      await logActivity(ctx, {
        contractId: contract.id,
        event: 'party.withdrawal_sent',
        subject: partyPath(party),
        userId: actor.id,
        details: input.silent ? { silent: true } : channelDetails(party, channels),
        time: now,
        ...origin,
      });
    }
    return (await planReminders(ctx, contract.id)) ?? withdrawn;
  });
}
