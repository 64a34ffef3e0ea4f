import type { TContractSend } from '../../shared/api/contracts';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { AnnotationRow } from '../db/repos/annotations';
import type { SealedContract } from '../evidence/record-seal';
import { AppError, validationFailed } from '../core/errors';
import type { Actor } from '../core/actor';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { assertDraft } from '../contracts/assert-draft';
import { findDraft } from '../contracts/find-draft';
import { isActorsParty } from '../policies/contracts';
import { partiesToInviteAtSend } from '../../shared/signing-order';
import { defaultValues } from './field-values';
import { DEFAULT_MARK } from './read-mark';
import { sentEntry } from './signing-entries';
import { scheduleExpiry } from './expire-contracts';
import { inviteParties } from './invite-parties';
import { planReminders } from './plan-reminders';
import { turnOf } from './party-turns';
import { assertMaySend, countContractSent, withinSmsAllowance } from '../subscription/allowance';
import {
  applyAcceptances,
  inTransactionUnlessMoved,
  retryWhileMoved,
  sealAccepted,
  writeAcceptances,
  type Acceptance,
  type AcceptedContract,
} from './write-acceptances';

type Send = { isSilent: boolean; isAutoSign: boolean; userId: number; origin: RequestOrigin };

/** What must hold for a draft to go out. */
function checkSendable(ctx: AppContext, contract: ContractRow, parties: readonly PartyRow[]): void {
  assertDraft(contract);
  const answering = parties.filter((party) => party.signType !== 'VIEWER');
  if (answering.length === 0) {
    throw new AppError('conflict', 'The contract has no party that signs or approves; add one before sending.');
  }
  const problems: string[] = [];
  if (contract.expireAt !== null && contract.expireAt <= ctx.now()) problems.push('expire_time: is in the past');
  // Viewers too: under a code the link of every party opens only with one.
  for (const party of parties) {
    if (contract.requireAuth === 'EMAIL_CODE' && !party.email)
      problems.push(`parties.${party.id}.email: is needed for require_auth EMAIL_CODE`);
    if (contract.requireAuth === 'SMS_CODE' && !party.mobilePhone) {
      problems.push(`parties.${party.id}.mobile_phone: is needed for require_auth SMS_CODE`);
    }
  }
  if (problems.length > 0) throw validationFailed(problems);
}

/**
 * Sends a draft: from here on the contract and its parts are read-only. One transaction reads
 * the contract and its parties, checks them, and writes the state change, its log entry, the
 * expiry job, with `auto_sign` the acceptance of the parties whose user is the acting user
 * (which may sign the contract at once), the invitations (unless `silent`) of the parties in
 * turn and every viewer, and the reminder plan.
 */
export async function sendContract(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  options: TContractSend,
  origin: RequestOrigin,
): Promise<ContractRow> {
  const send: Send = {
    isSilent: options.silent ?? false,
    isAutoSign: options.auto_sign ?? false,
    userId: actor.id,
    origin,
  };
  return retryWhileMoved(async () => {
    const now = ctx.now();
    const sealing = send.isAutoSign ? await sealAtSend(ctx, contractId, actor, send, now) : undefined;
    return inTransactionUnlessMoved(ctx, async () => {
      const contract = await findDraft(ctx, contractId, actor);
      const parties = await ctx.repos.parties.listInContract(contractId);
      checkSendable(ctx, contract, parties);
      const accepted = await acceptAtSend(ctx, contract, parties, actor, send, now);
      // The signed PDF was made from an earlier read: it holds only while the answers are the same.
      if (accepted.isComplete !== (sealing !== undefined) || (sealing && sealing.snapshot !== accepted.snapshot))
        return undefined;
      return writeSend(ctx, accepted, send, sealing?.sealed, now);
    });
  });
}

/**
 * A plain send (no auto_sign, not silent) inside the caller's transaction, for a contract the
 * appliance made itself (a bulk send's row): the same checks and writes as `sendContract`.
 */
export async function sendInTransaction(
  ctx: AppContext,
  contract: ContractRow,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  const now = ctx.now();
  const send: Send = { isSilent: false, isAutoSign: false, userId: actor.id, origin };
  const parties = await ctx.repos.parties.listInContract(contract.id);
  checkSendable(ctx, contract, parties);
  return writeSend(ctx, await acceptAtSend(ctx, contract, parties, actor, send, now), send, undefined, now);
}

/**
 * With auto_sign the acting user's parties accept at send, which may complete the contract.
 * Sealing is asynchronous, so the signed PDF is made from a read ahead of the transaction.
 */
async function sealAtSend(
  ctx: AppContext,
  contractId: number,
  actor: Actor,
  send: Send,
  now: number,
): Promise<{ snapshot: string; sealed: SealedContract } | undefined> {
  const contract = await findDraft(ctx, contractId, actor);
  const parties = await ctx.repos.parties.listInContract(contractId);
  checkSendable(ctx, contract, parties);
  // Refused before sealing when the plan would refuse the send; its transaction checks again and counts.
  await assertMaySend(ctx);
  const accepted = await acceptAtSend(ctx, contract, parties, actor, send, now);
  const sealed = await sealAccepted(ctx, accepted, [sentEntry(contractId, send, now)], now);
  return sealed ? { snapshot: accepted.snapshot, sealed } : undefined;
}

/** The acceptances of the acting user's parties under auto_sign (none without it). */
async function acceptAtSend(
  ctx: AppContext,
  contract: ContractRow,
  parties: readonly PartyRow[],
  actor: Actor,
  send: Send,
  now: number,
): Promise<AcceptedContract> {
  const own = send.isAutoSign
    ? parties.filter((party) => isActorsParty(actor, party) && party.signType !== 'VIEWER')
    : [];
  const annotations: AnnotationRow[] = own.length > 0 ? await ctx.repos.annotations.listInContract(contract.id) : [];
  const today = ctx.timestamp(now).slice(0, 10);
  const acceptances: Acceptance[] = own.map((party) => ({
    partyId: party.id,
    values: defaultValues(annotations, party, today),
    signatureName: party.name,
    mark: party.signType === 'DEFAULT' ? DEFAULT_MARK : undefined,
    origin: send.origin,
    authentication: 'AUTO_SIGN',
    userId: actor.id,
  }));
  return applyAcceptances(contract, parties, annotations, acceptances, now);
}

/** The send's writes, inside its transaction, in the order the log (and a sealed audit trail) lists them. */
async function writeSend(
  ctx: AppContext,
  accepted: AcceptedContract,
  send: Send,
  sealed: SealedContract | undefined,
  now: number,
): Promise<ContractRow> {
  const contractId = accepted.contract.id;
  // The office's plan: this month's contracts (and the end date), counted with the send.
  await countContractSent(ctx);
  // Sent silently, the office hands the links over itself: no automatic messages either.
  const quiet = send.isSilent ? { reminderIntervalDays: null, expiryWarningDays: null } : {};
  const sent = await ctx.repos.contracts.changeStatus(accepted.contract, 'sent', {
    sentAt: now,
    updatedAt: now,
    isSilent: send.isSilent,
    ...quiet,
  });
  await logActivity(ctx, sentEntry(contractId, send, now));
  if (sent.expireAt !== null) await scheduleExpiry(ctx, contractId, sent.expireAt);
  const written = await writeAcceptances(ctx, sent, accepted, sealed, now);
  if (sealed) return (await planReminders(ctx, contractId)) ?? written.contract;
  const toInvite = new Set(
    partiesToInviteAtSend(written.parties.map(turnOf), sent.partyOrderDefined)
      .filter((turn) => !accepted.byParty.has(turn.id))
      .map((turn) => turn.id),
  );
  // The invitations' SMS are the office's own: held to the month's SMS allowance.
  await withinSmsAllowance(ctx, () =>
    inviteParties(
      ctx,
      sent,
      written.parties.filter((party) => toInvite.has(party.id)),
      'invitation',
      { isSilent: sent.isSilent, origin: send.origin, userId: send.userId },
    ),
  );
  return (await planReminders(ctx, contractId)) ?? sent;
}
