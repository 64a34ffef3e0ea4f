import type { TParty } from '../../shared/api/parties';
import { isAnswering, partiesInTurn, type PartyTurn } from '../../shared/signing-order';
import type { MessageKey } from '../i18n/en';
import type { ContractStatus } from './contract-status';

/** Where one party stands, as an office admin asks it. */
export type PartyState =
  | 'draft'
  | 'waiting'
  | 'invited'
  | 'no-sms-gateway'
  | 'no-mail-server'
  | 'opened'
  | 'signed'
  | 'approved'
  | 'rejected'
  | 'unanswered';

/** Which ways of sending work now (the session says): an invitation by a channel that does not waits in the outbox. */
export type Channels = { email: boolean; sms: boolean };

export type PartyView = {
  party: TParty;
  state: PartyState;
  /** Viewers get the document and the signed copy but never answer. */
  isAnswering: boolean;
  /** With a signing order: the parties this one waits for. */
  waitingFor: TParty[];
};

/** The turn rules' view of a party; `id` is its place in the list. */
const turnOf = (party: TParty, index: number): PartyTurn => ({
  id: index,
  signType: party.sign_type,
  signOrder: party.sign_order,
  isAccept: party.is_accept,
  hasRejected: party.reject_cause !== null,
});

/**
 * Each party's state from what the API shows: its answer, the contract's status and, with
 * `party_order_defined`, the same turn rules the server invites by. "Opened" is known from
 * `email_status` only, so for a party invited by SMS or by hand it stays "invited".
 */
export function describeParties(
  parties: TParty[],
  status: ContractStatus,
  isOrdered: boolean,
  channels: Channels = { email: true, sms: true },
): PartyView[] {
  // Not "invited" while the invitation cannot leave: it waits in the outbox for its channel.
  const invited = (party: TParty): PartyState => {
    const method = party.delivery_method;
    if (method === 'SMS' && !channels.sms) return 'no-sms-gateway';
    if (method === 'EMAIL' && !channels.email) return 'no-mail-server';
    if (method === 'EMAIL_AND_SMS' && !channels.email && !channels.sms) return 'no-mail-server';
    return 'invited';
  };
  const turns = parties.map(turnOf);
  const inTurn = new Set(partiesInTurn(turns, isOrdered).map((turn) => turn.id));
  const current = parties.filter((_party, index) => inTurn.has(index));
  return parties.map((party, index): PartyView => {
    const turn = turns[index] as PartyTurn;
    const view = { party, isAnswering: isAnswering(turn), waitingFor: [] as TParty[] };
    if (party.reject_cause !== null) return { ...view, state: 'rejected' };
    if (party.is_accept) return { ...view, state: party.sign_type === 'APPROVER' ? 'approved' : 'signed' };
    if (status === 'draft') return { ...view, state: 'draft' };
    const hasOpened = party.email_status.opened || party.email_status.clicked;
    if (!view.isAnswering) return { ...view, state: hasOpened ? 'opened' : invited(party) };
    if (status !== 'sent') return { ...view, state: 'unanswered' };
    if (!inTurn.has(turn.id)) return { ...view, state: 'waiting', waitingFor: current };
    return { ...view, state: hasOpened ? 'opened' : invited(party) };
  });
}

export const PARTY_STATE_TONE = {
  draft: 'neutral',
  waiting: 'neutral',
  invited: 'info',
  'no-sms-gateway': 'warning',
  'no-mail-server': 'warning',
  opened: 'info',
  signed: 'success',
  approved: 'success',
  rejected: 'danger',
  unanswered: 'warning',
} as const;

export const PARTY_STATE_LABEL: Record<PartyState, MessageKey> = {
  draft: 'partyState.draft',
  waiting: 'partyState.waiting',
  invited: 'partyState.invited',
  'no-sms-gateway': 'partyState.noSmsGateway',
  'no-mail-server': 'partyState.noMailServer',
  opened: 'partyState.opened',
  signed: 'partyState.signed',
  approved: 'partyState.approved',
  rejected: 'partyState.rejected',
  unanswered: 'partyState.unanswered',
};

/** How far the answers have come: accepted answering parties of all answering parties. */
export function answerProgress(views: PartyView[]): { done: number; total: number } {
  const answering = views.filter((view) => view.isAnswering);
  return { done: answering.filter((view) => view.party.is_accept).length, total: answering.length };
}

/** A party whose answer is awaited now: invited (its invitation may still wait for its channel) or opened. */
export const isAwaited = (view: PartyView): boolean =>
  view.isAnswering &&
  (view.state === 'invited' ||
    view.state === 'opened' ||
    view.state === 'no-sms-gateway' ||
    view.state === 'no-mail-server');
