import { describe, expect, it } from 'vitest';
import {
  isFullyAccepted,
  partiesInTurn,
  partiesNewlyInTurn,
  partiesToInviteAtSend,
  type PartyTurn,
} from '../../shared/signing-order';

const party = (id: number, signOrder: number, extra: Partial<PartyTurn> = {}): PartyTurn => ({
  id,
  signType: 'DEFAULT',
  signOrder,
  isAccept: false,
  hasRejected: false,
  ...extra,
});
const ids = (list: PartyTurn[]) => list.map((p) => p.id);

describe('signing order', () => {
  it('without an order, everyone open is in turn', () => {
    expect(ids(partiesInTurn([party(1, 2), party(2, 1), party(3, 1, { isAccept: true })], false))).toEqual([1, 2]);
  });

  it('with an order, the lowest sign_order group is in turn, side by side', () => {
    const parties = [party(1, 2), party(2, 1), party(3, 1), party(4, 3)];
    expect(ids(partiesInTurn(parties, true))).toEqual([2, 3]);
    const afterOne = parties.map((p) => (p.id === 2 ? { ...p, isAccept: true } : p));
    expect(partiesNewlyInTurn(parties, afterOne, true)).toEqual([]);
    const afterGroup = afterOne.map((p) => (p.id === 3 ? { ...p, isAccept: true } : p));
    expect(ids(partiesNewlyInTurn(afterOne, afterGroup, true))).toEqual([1]);
  });

  it('invites viewers at send but never waits for them', () => {
    const parties = [party(1, 1), party(2, 2), party(3, 9, { signType: 'VIEWER' })];
    expect(ids(partiesToInviteAtSend(parties, true))).toEqual([1, 3]);
    expect(isFullyAccepted(parties.map((p) => (p.signType === 'VIEWER' ? p : { ...p, isAccept: true })))).toBe(true);
    expect(isFullyAccepted([party(3, 1, { signType: 'VIEWER' })])).toBe(false);
  });

  it('approvers must answer like signers', () => {
    expect(isFullyAccepted([party(1, 1, { isAccept: true }), party(2, 1, { signType: 'APPROVER' })])).toBe(false);
  });
});
