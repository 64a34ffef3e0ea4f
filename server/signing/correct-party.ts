import type { TPartyCorrection } from '../../shared/api/parties';
import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import { AppError, notFound, validationFailed } from '../core/errors';
import { inTransaction } from '../db/open-database';
import type { PartyChanges, PartyRow } from '../db/repos/parties';
import type { Actor } from '../core/actor';
import { findContract } from '../contracts/find-draft';
import { contactProblems } from '../contracts/save-party';
import type { RequestOrigin } from '../activity/log-activity';
import { reissueParty } from './reissue-party';
import { isExpired } from './party-access';

type Corrected = Pick<PartyRow, 'name' | 'email' | 'mobilePhone' | 'deliveryMethod'>;

const FIELDS: ReadonlyArray<[keyof TPartyCorrection & string, keyof Corrected]> = [
  ['name', 'name'],
  ['email', 'email'],
  ['mobile_phone', 'mobilePhone'],
  ['delivery_method', 'deliveryMethod'],
];

async function refuseUnlessOpen(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  party: PartyRow | undefined,
): Promise<PartyRow> {
  const contract = await findContract(ctx, contractId, actor);
  const path = `/api/contracts/${contract.id}`;
  if (contract.status === 'draft')
    throw new AppError('contract-state', `Contract ${path} is a draft: change the party with PUT instead.`);
  if (contract.status !== 'sent')
    throw new AppError('contract-state', `Contract ${path} is already ${contract.status}.`);
  if (contract.withdrawnAt !== null || isExpired(ctx, contract))
    throw new AppError('contract-state', `Contract ${path} is closed: its signing links no longer work.`);
  if (!party || party.contractId !== contract.id) throw notFound('party');
  if (party.isAccept || party.rejectedAt !== null)
    throw new AppError('contract-state', `Party ${partyPath(party)} has already answered; it cannot be corrected.`);
  return party;
}

/**
 * POST …/parties/{party_id}/correction: a party of a sent contract who has not answered gets
 * corrected details (a mistyped e-mail, say) and a new link, in one transaction: the old link
 * stops working at once, the activity log records who changed what and why, and a party that
 * was invited already is invited again at the new address (unless the contract was sent
 * silently). The interface keeps PUT on a sent contract's parties refused; this is an action,
 * like notify.
 */
export async function correctParty(
  ctx: AppContext,
  contractId: number,
  partyId: number,
  input: TPartyCorrection,
  actor: Actor,
  origin: RequestOrigin,
): Promise<PartyRow> {
  return inTransaction(ctx.db, async () => {
    const party = await refuseUnlessOpen(ctx, contractId, actor, await ctx.repos.parties.findById(partyId));
    const changes: PartyChanges = {};
    const details: Record<string, string> = { reason: input.reason.trim() };
    for (const [field, column] of FIELDS) {
      const value = field === 'name' ? input.name?.trim() : (input[field] as string | undefined);
      if (value === undefined || value === party[column]) continue;
      (changes as Record<string, string>)[column] = value;
      details[field] = `${party[column] || '—'} → ${value || '—'}`;
    }
    if (Object.keys(changes).length === 0)
      throw validationFailed(['body: change at least one of name, email, mobile_phone, delivery_method']);
    const problems = contactProblems({ ...party, ...changes });
    if (problems.length > 0) throw validationFailed(problems);

    const contract = await findContract(ctx, contractId, actor);
    return reissueParty(ctx, contract, party, {
      changes,
      event: 'party.corrected',
      details,
      origin,
      userId: actor.id,
    });
  });
}
