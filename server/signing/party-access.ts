import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { AppError } from '../core/errors';
import { turnOf } from './party-turns';
import { isInTurn } from '../../shared/signing-order';

export const isExpired = (ctx: AppContext, contract: ContractRow) =>
  contract.expireAt !== null && contract.expireAt <= ctx.now();

/**
 * What must hold for a party to answer now: the contract is out for signing and not expired,
 * the party answers (not a viewer), has not answered, and it is its turn. Each refusal is a 409
 * that says why, in words the signing page can show.
 */
export function checkCanAnswer(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  parties: readonly PartyRow[],
): void {
  const refuse = (detail: string) => {
    throw new AppError('contract-state', detail);
  };
  if (contract.status === 'draft') refuse('The document has not been sent yet.');
  if (contract.status === 'signed') refuse('The document is already signed by every party.');
  if (contract.status === 'rejected') refuse('The document was rejected and can no longer be signed.');
  if (contract.withdrawnAt !== null) refuse('The sender withdrew this document; it can no longer be signed.');
  if (isExpired(ctx, contract)) refuse('The time to sign this document has run out.');
  if (party.signType === 'VIEWER')
    refuse('You receive this document for your information; there is nothing to answer.');
  if (party.isAccept) refuse('You have already signed this document.');
  if (party.rejectedAt !== null) refuse('You have already rejected this document.');
  if (!isInTurn(turnOf(party), parties.map(turnOf), contract.partyOrderDefined))
    refuse('It is not your turn to sign yet.');
}
