import { z } from 'zod';

/**
 * Automatic reminders and the expiry warning: the office's default (settings) and each
 * contract's own choice. Days are the schedule's unit (REMINDER_DAY_S seconds each).
 */
export const MAX_REMINDER_DAYS = 365;
export const MAX_REMINDER_COUNT = 20;

const days = () => z.number().int().min(1).max(MAX_REMINDER_DAYS);

/** The writable reminder fields of a contract (and of the office default). */
export const reminderFields = {
  reminder_interval_days: days().nullable().meta({
    description:
      'Remind the parties whose answer is awaited every this many days after their invitation; null: no automatic reminders',
  }),
  reminder_max_count: z
    .number()
    .int()
    .min(1)
    .max(MAX_REMINDER_COUNT)
    .meta({ description: `At most this many automatic reminders per party (1 to ${MAX_REMINDER_COUNT})` }),
  expiry_warning_days: days().nullable().meta({
    description: 'Warn the parties whose answer is awaited this many days before expire_time; null: no warning',
  }),
};

export const ZReminderSettingsSchema = z.object(reminderFields).meta({
  id: 'ReminderSettings',
  description: 'The office default given to every new contract; each contract may change its own.',
});

export const ZReminderSettingsUpdateSchema = z
  .strictObject(reminderFields)
  .partial()
  .meta({ id: 'ReminderSettingsUpdate' });

/** The appliance's default until the office saves its own. */
export const DEFAULT_REMINDER_SETTINGS: TReminderSettings = {
  reminder_interval_days: 3,
  reminder_max_count: 3,
  expiry_warning_days: 2,
};

export type TReminderSettings = z.infer<typeof ZReminderSettingsSchema>;
export type TReminderSettingsUpdate = z.infer<typeof ZReminderSettingsUpdateSchema>;
