/**
 * The rules of who signs when , as pure
 * functions over the parties of one contract: the server follows them, and the admin UI shows
 * by them whose turn it is.
 */
export type PartyTurn = {
  id: number;
  signType: 'DEFAULT' | 'APPROVER' | 'VIEWER';
  signOrder: number;
  isAccept: boolean;
  hasRejected: boolean;
};

/** Viewers receive the document but never answer; everyone else must accept. */
export const isAnswering = (party: PartyTurn) => party.signType !== 'VIEWER';
const isOpen = (party: PartyTurn) => isAnswering(party) && !party.isAccept && !party.hasRejected;

/**
 * The parties whose turn it is. Without an order, every open party; with one, the open
 * parties of the lowest sign_order (equal numbers sign side by side).
 */
export function partiesInTurn(parties: readonly PartyTurn[], isOrdered: boolean): PartyTurn[] {
  const open = parties.filter(isOpen);
  if (!isOrdered || open.length === 0) return open;
  const lowest = Math.min(...open.map((party) => party.signOrder));
  return open.filter((party) => party.signOrder === lowest);
}

/** Who gets the invitation when the contract is sent: those in turn, and every viewer. */
export function partiesToInviteAtSend(parties: readonly PartyTurn[], isOrdered: boolean): PartyTurn[] {
  const inTurn = new Set(partiesInTurn(parties, isOrdered).map((party) => party.id));
  return parties.filter((party) => inTurn.has(party.id) || party.signType === 'VIEWER');
}

/**
 * Who is newly in turn after `answered` accepted: the next group, once the answering party's
 * group has finished. Empty when nobody new is in turn.
 */
export function partiesNewlyInTurn(
  before: readonly PartyTurn[],
  after: readonly PartyTurn[],
  isOrdered: boolean,
): PartyTurn[] {
  if (!isOrdered) return [];
  const was = new Set(partiesInTurn(before, true).map((party) => party.id));
  return partiesInTurn(after, true).filter((party) => !was.has(party.id));
}

/** Every answering party has accepted (and there is at least one). */
export function isFullyAccepted(parties: readonly PartyTurn[]): boolean {
  const answering = parties.filter(isAnswering);
  return answering.length > 0 && answering.every((party) => party.isAccept);
}

export function isInTurn(party: PartyTurn, parties: readonly PartyTurn[], isOrdered: boolean): boolean {
  return partiesInTurn(parties, isOrdered).some((candidate) => candidate.id === party.id);
}
