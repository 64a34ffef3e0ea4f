import type { ReadContext } from '../context/read-context';
import {
  DEFAULT_REMINDER_SETTINGS,
  ZReminderSettingsSchema,
  type TReminderSettings,
  type TReminderSettingsUpdate,
} from '../../shared/api/reminders';
import type { AppContext } from '../context/app-context';
import type { ContractChanges } from '../db/repos/contracts';

const KEY = 'reminders';

/** The office's default reminders, given to every new contract; the appliance's own until saved. */
export async function readReminderDefaults(ctx: ReadContext): Promise<TReminderSettings> {
  const stored = await ctx.repos.settings.get(KEY);
  if (stored === undefined) return DEFAULT_REMINDER_SETTINGS;
  try {
    return ZReminderSettingsSchema.parse(JSON.parse(stored));
  } catch {
    ctx.logger.warn({ key: KEY }, 'the stored reminder defaults are unreadable; using the appliance default');
    return DEFAULT_REMINDER_SETTINGS;
  }
}

export async function updateReminderDefaults(
  ctx: AppContext,
  input: TReminderSettingsUpdate,
): Promise<TReminderSettings> {
  const next = { ...(await readReminderDefaults(ctx)), ...input };
  await ctx.repos.settings.set(KEY, JSON.stringify(next), ctx.now());
  return next;
}

/** The reminder fields of a body as column changes. */
export function reminderChangesOf(input: Partial<TReminderSettings>): ContractChanges {
  const changes: ContractChanges = {};
  if (input.reminder_interval_days !== undefined) changes.reminderIntervalDays = input.reminder_interval_days;
  if (input.reminder_max_count !== undefined) changes.reminderMaxCount = input.reminder_max_count;
  if (input.expiry_warning_days !== undefined) changes.expiryWarningDays = input.expiry_warning_days;
  return changes;
}

/** A new contract's reminders: the office default, then what the body says. */
export async function initialReminders(
  ctx: AppContext,
  input: Partial<TReminderSettings> = {},
): Promise<ContractChanges> {
  return reminderChangesOf({ ...(await readReminderDefaults(ctx)), ...input });
}
