import type { TReminderSettingsUpdate } from '../../shared/api/reminders';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { inTransaction } from '../db/open-database';
import { AppError } from '../core/errors';
import type { Actor } from '../core/actor';
import { findContract } from '../contracts/find-draft';
import { logActivity, type RequestOrigin } from '../activity/log-activity';
import { isOpenForAnswers, planReminders } from './plan-reminders';
import { reminderChangesOf } from '../settings/reminder-defaults';

/**
 * Changes a contract's reminders, while a draft and while it is out for signing (the one change
 * a sent contract takes: it changes nothing the parties signed). The job is planned again in
 * the same transaction; `contract.reminders_changed` is logged.
 */
export async function changeReminders(
  ctx: AppContext,
  contractId: number,
  input: TReminderSettingsUpdate,
  actor: Actor,
  origin: RequestOrigin,
): Promise<ContractRow> {
  return inTransaction(ctx.db, async () => {
    const contract = await findContract(ctx, contractId, actor);
    if (contract.status !== 'draft' && !isOpenForAnswers(contract, ctx.now())) {
      const why =
        contract.withdrawnAt !== null
          ? 'was withdrawn'
          : contract.status === 'sent'
            ? 'has expired'
            : `is ${contract.status}`;
      throw new AppError(
        'contract-state',
        `Contract /api/contracts/${contract.id} ${why}: it has no reminders left to change.`,
      );
    }
    const changes = reminderChangesOf(input);
    const isChanged = (Object.keys(changes) as (keyof typeof changes)[]).some((key) => changes[key] !== contract[key]);
    if (!isChanged) return contract;
    await ctx.repos.contracts.update(contract.id, { ...changes, updatedAt: ctx.now() });
    const changed = (await planReminders(ctx, contract.id)) ?? contract;
    // The choice as it stands now (an empty value: none), so the log alone tells what the parties were promised.
    const details = {
      reminder_interval_days: changed.reminderIntervalDays ?? '',
      reminder_max_count: changed.reminderMaxCount,
      expiry_warning_days: changed.expiryWarningDays ?? '',
    };
    await logActivity(ctx, {
      contractId: contract.id,
      event: 'contract.reminders_changed',
      userId: actor.id,
      details,
      ...origin,
    });
    return changed;
  });
}
