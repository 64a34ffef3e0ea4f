import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import type { Actor } from '../core/actor';
import { findContract } from '../contracts/find-draft';
import type { RequestOrigin } from '../activity/log-activity';
import { inviteParties } from './invite-parties';
import { planReminders } from './plan-reminders';
import { isExpired } from './party-access';
import { turnOf } from './party-turns';
import { partiesInTurn } from '../../shared/signing-order';
import { withinSmsAllowance } from '../subscription/allowance';

/**
 * POST /api/contracts/{id}/notify: a reminder to every party whose answer is awaited (with a
 * signing order, the ones in turn). Refused (409) for drafts and for signed, rejected or
 * expired contracts.
 */
export async function notifyContract(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  return inTransaction(ctx.db, async () => {
    const contract = await findContract(ctx, contractId, actor);
    if (contract.status !== 'sent') {
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} is ${contract.status}; reminders go only to contracts out for signing.`,
      );
    }
    if (contract.withdrawnAt !== null) {
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} was withdrawn; its signing links are closed.`,
      );
    }
    if (isExpired(ctx, contract)) {
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} has expired; its signing links are closed.`,
      );
    }
    const parties = await ctx.repos.parties.listInContract(contractId);
    const awaited = new Set(partiesInTurn(parties.map(turnOf), contract.partyOrderDefined).map((turn) => turn.id));
    // A reminder by hand is the office's own: its SMS are held to the month's SMS allowance.
    await withinSmsAllowance(ctx, () =>
      inviteParties(
        ctx,
        contract,
        parties.filter((party) => awaited.has(party.id)),
        'reminder',
        { origin, userId: actor.id },
      ),
    );
    return (await planReminders(ctx, contractId)) ?? contract;
  });
}
