import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { turnOf } from './party-turns';
import { partiesInTurn } from '../../shared/signing-order';

export const REMINDER_QUEUE = 'reminders';

export type ReminderPlan = {
  /** The parties whose answer is awaited and who can be reached (not NONE). */
  awaited: PartyRow[];
  /** Each awaited party that has reminders left, with when its next one is due. */
  reminders: Array<{ party: PartyRow; at: number }>;
  nextReminderAt: number | null;
  /** When the expiry warning is due; null when none is to go out. */
  warningAt: number | null;
};

const NOTHING: ReminderPlan = { awaited: [], reminders: [], nextReminderAt: null, warningAt: null };

/** Out for signing and its links open: not answered, withdrawn or expired. */
export const isOpenForAnswers = (contract: ContractRow, now: number) =>
  contract.status === 'sent' &&
  contract.withdrawnAt === null &&
  (contract.expireAt === null || contract.expireAt > now);

/**
 * What the contract's reminders are now. Reminders go to the parties in turn (the signing
 * order's rules), every `reminder_interval_days` after the party's invitation or its last
 * reminder, at most `reminder_max_count` each, never after the links close. The expiry warning
 * goes once, `expiry_warning_days` before `expire_time`, unless that is not after the send
 * (the invitation itself said when the links close).
 */
export function reminderPlan(
  contract: ContractRow,
  parties: readonly PartyRow[],
  now: number,
  dayMs: number,
): ReminderPlan {
  if (!isOpenForAnswers(contract, now)) return NOTHING;
  const inTurn = new Set(partiesInTurn(parties.map(turnOf), contract.partyOrderDefined).map((turn) => turn.id));
  const awaited = parties.filter((party) => inTurn.has(party.id) && party.deliveryMethod !== 'NONE');
  const sentAt = contract.sentAt ?? now;
  const interval = contract.reminderIntervalDays;
  const reminders =
    interval === null
      ? []
      : awaited
          .filter((party) => party.remindersSent < contract.reminderMaxCount)
          .map((party) => ({
            party,
            at: Math.max(party.invitedAt ?? sentAt, party.lastRemindedAt ?? 0) + interval * dayMs,
          }))
          .filter((reminder) => contract.expireAt === null || reminder.at < contract.expireAt);
  let warningAt: number | null = null;
  if (
    contract.expiryWarningDays !== null &&
    contract.expireAt !== null &&
    contract.expiryWarnedAt === null &&
    awaited.length > 0
  ) {
    const at = contract.expireAt - contract.expiryWarningDays * dayMs;
    if (at > sentAt) warningAt = at;
  }
  const nextReminderAt = reminders.length > 0 ? Math.min(...reminders.map((reminder) => reminder.at)) : null;
  return { awaited, reminders, nextReminderAt, warningAt };
}

/**
 * Plans the contract's reminder job again (call inside the transaction of whatever changed the
 * choice, the send or the answers): its planned times on the contract, and the one queued job
 * at the earliest of them, or none. Returns the contract as it now is.
 */
export async function planReminders(ctx: AppContext, contractId: number): Promise<ContractRow | undefined> {
  const contract = await ctx.repos.contracts.findById(contractId);
  if (!contract) {
    await ctx.repos.jobs.plan(REMINDER_QUEUE, contractId, null, ctx.now());
    return undefined;
  }
  const now = ctx.now();
  const plan = reminderPlan(
    contract,
    await ctx.repos.parties.listInContract(contractId),
    now,
    ctx.config.reminderDayMs,
  );
  const times = [plan.nextReminderAt, plan.warningAt].filter((at): at is number => at !== null);
  await ctx.repos.jobs.plan(REMINDER_QUEUE, contractId, times.length > 0 ? Math.min(...times) : null, now);
  if (contract.nextReminderAt === plan.nextReminderAt && contract.expiryWarningAt === plan.warningAt) return contract;
  return (
    (await ctx.repos.contracts.update(contractId, {
      nextReminderAt: plan.nextReminderAt,
      expiryWarningAt: plan.warningAt,
    })) ?? contract
  );
}
