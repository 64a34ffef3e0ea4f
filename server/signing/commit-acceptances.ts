import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { notFound } from '../core/errors';
import { inviteParties } from './invite-parties';
import { planReminders } from './plan-reminders';
import { answersSnapshot, turnOf } from './party-turns';
import { partiesNewlyInTurn } from '../../shared/signing-order';
import {
  applyAcceptances,
  inTransactionUnlessMoved,
  retryWhileMoved,
  sealAccepted,
  writeAcceptances,
  type Acceptance,
} from './write-acceptances';

export type AcceptancePlan = {
  /** Refuses (throws a problem) when the contract is not in a state the acceptances may change. */
  check(contract: ContractRow, parties: readonly PartyRow[]): void;
};

/**
 * Commits parties' acceptances of a sent contract with everything they cause, in one
 * transaction: field values, activity, `contract.party_signed`, invitations of the parties next
 * in turn, and, when the last answering party accepts, the sealed signed PDF, the `signed`
 * state, `contract.signed` and the download messages (see `retryWhileMoved`).
 */
export async function commitAcceptances(
  ctx: AppContext,
  contractId: number,
  acceptances: readonly Acceptance[],
  plan: AcceptancePlan,
): Promise<ContractRow> {
  return retryWhileMoved(async () => {
    const now = ctx.now();
    const contract = await ctx.repos.contracts.findById(contractId);
    if (!contract) throw notFound('contract');
    const parties = await ctx.repos.parties.listInContract(contractId);
    plan.check(contract, parties);
    const annotations = await ctx.repos.annotations.listInContract(contractId);
    const accepted = applyAcceptances(contract, parties, annotations, acceptances, now);
    const sealed = await sealAccepted(ctx, accepted, [], now);

    return inTransactionUnlessMoved(ctx, async () => {
      const current = await ctx.repos.contracts.findById(contractId);
      if (!current) throw notFound('contract');
      const before = await ctx.repos.parties.listInContract(contractId);
      if (answersSnapshot(current.status, before) !== accepted.snapshot) return undefined;
      plan.check(current, before);
      const written = await writeAcceptances(ctx, current, accepted, sealed, now);
      if (sealed) return (await planReminders(ctx, contractId)) ?? written.contract;
      const toInvite = new Set(
        partiesNewlyInTurn(before.map(turnOf), written.parties.map(turnOf), current.partyOrderDefined).map(
          (turn) => turn.id,
        ),
      );
      // A contract sent silently stays silent: the integrator hands each party its link.
      await inviteParties(
        ctx,
        current,
        written.parties.filter((party) => toInvite.has(party.id)),
        'invitation',
        { isSilent: current.isSilent },
      );
      // An answer that moved the turn on: the reminders are planned again.
      return (await planReminders(ctx, contractId)) ?? current;
    });
  });
}
