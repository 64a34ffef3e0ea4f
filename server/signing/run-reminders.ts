import { partyPath } from '../../shared/api/paths';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import type { JobOutcome } from '../jobs/runner';
import { inTransaction } from '../db/open-database';
import { APPLIANCE_ORIGIN, logActivity } from '../activity/log-activity';
import { channelDetails, enqueuePartyMessage, type PartyMessageKind } from './party-messages';
import { planReminders, reminderPlan } from './plan-reminders';

/** One message to a party, recorded with how it went out. */
async function remind(
  ctx: AppContext,
  contract: ContractRow,
  party: PartyRow,
  kind: Extract<PartyMessageKind, 'reminder' | 'expiry-warning'>,
  now: number,
): Promise<void> {
  const channels = await enqueuePartyMessage(ctx, kind, contract, party);
  await ctx.repos.parties.update(party.id, {
    lastRemindedAt: now,
    ...(kind === 'reminder' ? { remindersSent: party.remindersSent + 1 } : {}),
    updatedAt: now,
  });
  await logActivity(ctx, {
    contractId: contract.id,
    event: kind === 'reminder' ? 'party.reminded' : 'party.expiry_warned',
    subject: partyPath(party),
    details: channelDetails(party, channels),
    time: now,
    ...APPLIANCE_ORIGIN,
  });
}

/**
 * The reminder job of one contract: in one transaction, the expiry warning and the reminders
 * that are due (their messages, counts and activity entries), then the next run planned. What
 * went out moves the party's due time on, so a run repeated after a crash sends nothing twice.
 * A party warned in this run gets no reminder in it too.
 */
export async function runReminders(ctx: AppContext, contractId: number): Promise<JobOutcome> {
  await inTransaction(ctx.db, async () => {
    const contract = await ctx.repos.contracts.findById(contractId);
    if (contract) {
      const now = ctx.now();
      const plan = reminderPlan(
        contract,
        await ctx.repos.parties.listInContract(contractId),
        now,
        ctx.config.reminderDayMs,
      );
      const warned = new Set<number>();
      if (plan.warningAt !== null && plan.warningAt <= now) {
        for (const party of plan.awaited) {
          await remind(ctx, contract, party, 'expiry-warning', now);
          warned.add(party.id);
        }
        await ctx.repos.contracts.update(contractId, { expiryWarnedAt: now, updatedAt: now });
      }
      for (const reminder of plan.reminders) {
        if (reminder.at <= now && !warned.has(reminder.party.id))
          await remind(ctx, contract, reminder.party, 'reminder', now);
      }
    }
    await planReminders(ctx, contractId);
  });
  return { kind: 'done' };
}
