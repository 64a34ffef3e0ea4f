import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../core/context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { AnnotationRow } from '../db/repos/annotations';
import { inTransaction } from '../db/open-database';
import { AppError, notFound } from '../core/errors';
import { logActivity, type ActivityInput, type RequestOrigin } from '../activity/log-activity';
import { recordEvent } from '../webhooks/record-event';
import { markOfRow, markRow, type PartyMark } from './read-mark';
import { recordSeal } from '../evidence/record-seal';
import { sealContract, type SealedContract } from './seal-contract';
import { acceptanceEntry, sentEntry, signedEntry } from './signing-entries';
import { inviteParties } from './invite-parties';
import { enqueuePartyMessage } from './party-messages';
import { scheduleExpiry } from './expire-contracts';
import { planReminders } from './plan-reminders';
import { answersSnapshot, turnOf } from './party-turns';
import { isFullyAccepted, partiesNewlyInTurn, partiesToInviteAtSend } from '../../shared/signing-order';

/** One party's yes: the values of its fields, the name it signs with, where it answered from. */
export type Acceptance = {
  partyId: number;
  values: ReadonlyMap<number, string | boolean>;
  signatureName: string;
  /** The signer's mark; none for approvers. */
  mark?: PartyMark | undefined;
  origin: RequestOrigin;
  /** NONE, EMAIL_CODE, SMS_CODE or AUTO_SIGN: how the party was identified. */
  authentication: string;
  /** The user who answered for the party (auto_sign); else the party answered itself. */
  userId?: number;
};

export type AcceptancePlan = {
  /** Refuses (throws a problem) when the contract is not in a state the acceptances may change. */
  check(contract: ContractRow, parties: readonly PartyRow[]): void;
  /** Sending with auto_sign: the draft becomes sent in the same transaction, then invitations go out. */
  send?: { isSilent: boolean; isAutoSign?: boolean; userId: number; origin: RequestOrigin };
};

/** The log moved on between sealing and committing (another entry came in): seal again. */
class ChainMoved extends Error {}

const ATTEMPTS = 3;
const contractPath = (id: number) => `/api/contracts/${id}`;

function applyInMemory(party: PartyRow, acceptance: Acceptance, now: number): PartyRow {
  return {
    ...party,
    isAccept: true,
    signTime: now,
    signatureName: acceptance.signatureName,
    answerIpAddress: acceptance.origin.ipAddress,
    answerUserAgent: acceptance.origin.userAgent,
    answerAuthentication: acceptance.authentication,
    openedAt: party.openedAt ?? now,
    invitedAt: party.invitedAt ?? now,
  };
}

/**
 * Commits acceptances (a party signing, or the acting user's parties under auto_sign) with
 * everything they cause, in one transaction: field values, activity, `contract.party_signed`,
 * invitations of the parties next in turn, and, when the last answering party accepts, the
 * sealed signed PDF, the `signed` state, `contract.signed` and the download messages.
 *
 * Sealing is asynchronous, so the PDF is built from a snapshot first; the transaction then
 * checks that nobody answered in between (else it starts over), which keeps `contract.signed`
 * and `contract.rejected` exclusive without holding a transaction across an await.
 */
export async function commitAcceptances(
  ctx: AppContext,
  contractId: number,
  acceptances: readonly Acceptance[],
  plan: AcceptancePlan,
): Promise<ContractRow> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const now = ctx.now();
    const contract = ctx.repos.contracts.findById(contractId);
    if (!contract) throw notFound('contract');
    const parties = ctx.repos.parties.listInContract(contractId);
    plan.check(contract, parties);
    const snapshot = answersSnapshot(contract.status, parties);
    const byParty = new Map(acceptances.map((acceptance) => [acceptance.partyId, acceptance]));
    const accepted = parties.map((party) => {
      const acceptance = byParty.get(party.id);
      return acceptance ? applyInMemory(party, acceptance, now) : party;
    });
    const annotations = ctx.repos.annotations
      .listInContract(contractId)
      .map((annotation) => withValue(annotation, byParty));
    // The entries the transaction writes when this signing completes the contract, in its order:
    // the sealed audit trail lists them and prints the chain head they make.
    const sealEntries: ActivityInput[] = [
      ...(plan.send ? [sentEntry(contractId, plan.send, now)] : []),
      ...accepted.flatMap((party) => {
        const acceptance = byParty.get(party.id);
        return acceptance ? [acceptanceEntry(party, acceptance, now)] : [];
      }),
      signedEntry(contractId, now),
    ];
    const isComplete = isFullyAccepted(accepted.map(turnOf));
    const marks = isComplete ? marksOf(ctx, accepted, acceptances) : new Map<number, PartyMark>();
    const sealed = isComplete
      ? await sealContract(ctx, contract, accepted, annotations, marks, now, sealEntries)
      : undefined;

    const committed = inTransactionUnlessMoved(ctx, () => {
      let current = ctx.repos.contracts.findById(contractId);
      if (!current) throw notFound('contract');
      const before = ctx.repos.parties.listInContract(contractId);
      if (answersSnapshot(current.status, before) !== snapshot) return undefined;
      plan.check(current, before);
      if (plan.send) {
        // Sent silently, the office hands the links over itself: no automatic messages either.
        const quiet = plan.send.isSilent ? { reminderIntervalDays: null, expiryWarningDays: null } : {};
        current = ctx.repos.contracts.changeStatus(current, 'sent', {
          sentAt: now,
          updatedAt: now,
          isSilent: plan.send.isSilent,
          ...quiet,
        });
        logActivity(ctx, sentEntry(contractId, plan.send, now));
        if (current.expireAt !== null) scheduleExpiry(ctx, contractId, current.expireAt);
      }
      for (const party of accepted) {
        const acceptance = byParty.get(party.id);
        if (!acceptance) continue;
        writeAcceptance(ctx, current, party, acceptance, now);
        if (acceptance.mark) ctx.repos.partyMarks.save(markRow(party.id, acceptance.mark, now));
      }
      for (const annotation of annotations) {
        if (byParty.has(annotation.partyId))
          ctx.repos.annotations.update(annotation.id, { value: annotation.value, updatedAt: now });
      }
      const after = ctx.repos.parties.listInContract(contractId);
      if (sealed) {
        const signed = finishSigned(ctx, current, after, sealed, now);
        return planReminders(ctx, contractId) ?? signed;
      }
      const turnsBefore = before.map(turnOf);
      const turnsAfter = after.map(turnOf);
      const toInvite = plan.send
        ? partiesToInviteAtSend(turnsAfter, current.partyOrderDefined).filter((turn) => !byParty.has(turn.id))
        : partiesNewlyInTurn(turnsBefore, turnsAfter, current.partyOrderDefined);
      const inviteIds = new Set(toInvite.map((turn) => turn.id));
      // A contract sent silently stays silent: the integrator hands each party its link.
      inviteParties(
        ctx,
        current,
        after.filter((party) => inviteIds.has(party.id)),
        'invitation',
        {
          isSilent: current.isSilent,
          ...(plan.send ? { origin: plan.send.origin, userId: plan.send.userId } : {}),
        },
      );
      // The send, or an answer that moved the turn on: the reminders are planned again.
      return planReminders(ctx, contractId) ?? current;
    });
    if (committed) return committed;
  }
  throw new AppError('service-unavailable', 'The contract changed while it was being signed; try again.');
}

/** Every accepted party's mark: the ones answering now, and the stored ones of those who answered before. */
function marksOf(
  ctx: AppContext,
  parties: readonly PartyRow[],
  acceptances: readonly Acceptance[],
): Map<number, PartyMark> {
  const marks = new Map(
    ctx.repos.partyMarks.listOf(parties.map((party) => party.id)).map((row) => [row.partyId, markOfRow(row)]),
  );
  for (const acceptance of acceptances) if (acceptance.mark) marks.set(acceptance.partyId, acceptance.mark);
  return marks;
}

/** What the party filled in; a signature or initials mark holds the name it was signed with. */
function withValue(annotation: AnnotationRow, byParty: ReadonlyMap<number, Acceptance>): AnnotationRow {
  const acceptance = byParty.get(annotation.partyId);
  if (!acceptance) return annotation;
  const isMark = annotation.type === 'SIGNATURE' || annotation.type === 'INITIALS';
  const value = acceptance.values.get(annotation.id) ?? (isMark ? acceptance.signatureName : undefined);
  return value === undefined ? annotation : { ...annotation, value: String(value) };
}

/** The transaction of a commit; undefined when the answers or the log moved on meanwhile (start over). */
function inTransactionUnlessMoved<T>(ctx: AppContext, work: () => T | undefined): T | undefined {
  try {
    return inTransaction(ctx.db, work);
  } catch (error) {
    if (error instanceof ChainMoved) return undefined;
    throw error;
  }
}

function writeAcceptance(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  acceptance: Acceptance,
  now: number,
): void {
  ctx.repos.parties.update(party.id, {
    isAccept: true,
    signTime: now,
    signatureName: party.signatureName,
    answerIpAddress: party.answerIpAddress,
    answerUserAgent: party.answerUserAgent,
    answerAuthentication: party.answerAuthentication,
    openedAt: party.openedAt,
    invitedAt: party.invitedAt,
    updatedAt: now,
  });
  logActivity(ctx, acceptanceEntry(party, acceptance, now));
  recordEvent(ctx, 'contract.party_signed', { id: contractPath(contract.id), party: partyPath(party) });
}

function finishSigned(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  sealed: SealedContract,
  now: number,
): ContractRow {
  const signedFileId = ctx.repos.files.putFile(sealed.bytes, 'application/pdf', now);
  const signed = ctx.repos.contracts.changeStatus(contract, 'signed', { signedAt: now, signedFileId, updatedAt: now });
  const entry = logActivity(ctx, signedEntry(contract.id, now));
  if (entry.hash !== sealed.chainHead.hash) throw new ChainMoved();
  recordSeal(ctx, contract.id, sealed, now);
  recordEvent(ctx, 'contract.signed', { id: contractPath(contract.id) });
  if (!signed.isSilent) for (const party of parties) enqueuePartyMessage(ctx, 'signed', signed, party);
  return signed;
}
