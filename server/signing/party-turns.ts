import type { PartyRow } from '../db/repos/parties';
import type { PartyTurn } from '../../shared/signing-order';

/** A party row as the signing-order rules see it. */
export function turnOf(party: PartyRow): PartyTurn {
  return {
    id: party.id,
    signType: party.signType as PartyTurn['signType'],
    signOrder: party.signOrder,
    isAccept: party.isAccept,
    hasRejected: party.rejectedAt !== null,
  };
}

/** Everything that decides a contract's outcome, as one comparable string. */
export function answersSnapshot(status: string, parties: readonly PartyRow[]): string {
  return `${status}|${parties.map((party) => `${party.id}:${party.isAccept ? 'a' : ''}${party.rejectedAt === null ? '' : 'r'}`).join(',')}`;
}
