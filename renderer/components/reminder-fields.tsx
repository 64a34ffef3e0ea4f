import { useState, type ReactNode } from 'react';
import { useHasChanged } from '../lib/forms';
import type { TReminderSettings } from '../../shared/api/reminders';
import { MAX_REMINDER_COUNT, MAX_REMINDER_DAYS } from '../../shared/api/reminders';
import { useT } from '../lib/i18n';
import { useAction } from '../lib/use-action';
import { CheckboxField, TextField } from './fields';
import { Button, Notice, ProblemAlert } from './ui';

/** The reminder choice as a form edits it: switches and the numbers as typed. */
export type ReminderForm = { isReminding: boolean; interval: string; max: string; isWarning: boolean; warning: string };

export const reminderFormOf = (value: TReminderSettings): ReminderForm => ({
  isReminding: value.reminder_interval_days !== null,
  interval: String(value.reminder_interval_days ?? 3),
  max: String(value.reminder_max_count),
  isWarning: value.expiry_warning_days !== null,
  warning: String(value.expiry_warning_days ?? 2),
});

const whole = (text: string, max: number): number | undefined => {
  const value = Number(text.trim());
  return /^\d+$/.test(text.trim()) && value >= 1 && value <= max ? value : undefined;
};

/** The API body of a form, or the fields that are not whole numbers in range. */
export function reminderBodyOf(
  form: ReminderForm,
): { body: TReminderSettings } | { problems: Partial<Record<keyof TReminderSettings, true>> } {
  const interval = whole(form.interval, MAX_REMINDER_DAYS);
  const max = whole(form.max, MAX_REMINDER_COUNT);
  const warning = whole(form.warning, MAX_REMINDER_DAYS);
  const problems: Partial<Record<keyof TReminderSettings, true>> = {};
  if (form.isReminding && interval === undefined) problems.reminder_interval_days = true;
  if (max === undefined) problems.reminder_max_count = true;
  if (form.isWarning && warning === undefined) problems.expiry_warning_days = true;
  if (Object.keys(problems).length > 0) return { problems };
  return {
    body: {
      reminder_interval_days: form.isReminding ? (interval as number) : null,
      reminder_max_count: max as number,
      expiry_warning_days: form.isWarning ? (warning as number) : null,
    },
  };
}

type Props = {
  form: ReminderForm;
  onChange: (form: ReminderForm) => void;
  errors: Partial<Record<keyof TReminderSettings, string>>;
};

/** Automatic reminders (every N days, at most M times) and the warning N days before the links close. */
export function ReminderFields({ form, onChange, errors }: Props) {
  const t = useT();
  const set = (changes: Partial<ReminderForm>) => onChange({ ...form, ...changes });
  return (
    <div className="reminder-fields">
      <CheckboxField
        label={t('reminders.automatic')}
        hint={t('reminders.automaticHint')}
        checked={form.isReminding}
        onChecked={(isReminding) => set({ isReminding })}
      />
      {form.isReminding ? (
        <div className="form-grid reminder-numbers">
          <TextField
            label={t('reminders.interval')}
            hint={t('reminders.intervalHint')}
            error={errors.reminder_interval_days}
            value={form.interval}
            onValue={(interval) => set({ interval })}
            inputMode="numeric"
          />
          <TextField
            label={t('reminders.max')}
            hint={t('reminders.maxHint')}
            error={errors.reminder_max_count}
            value={form.max}
            onValue={(max) => set({ max })}
            inputMode="numeric"
          />
        </div>
      ) : null}
      <CheckboxField
        label={t('reminders.warning')}
        hint={t('reminders.warningHint')}
        checked={form.isWarning}
        onChecked={(isWarning) => set({ isWarning })}
      />
      {form.isWarning ? (
        <div className="form-grid reminder-numbers">
          <TextField
            label={t('reminders.warningDays')}
            error={errors.expiry_warning_days}
            value={form.warning}
            onValue={(warning) => set({ warning })}
            inputMode="numeric"
          />
        </div>
      ) : null}
    </div>
  );
}

/** What a form's problems say beside each field. */
function useReminderProblems() {
  const t = useT();
  return (problems: Partial<Record<keyof TReminderSettings, true>>) => ({
    ...(problems.reminder_interval_days
      ? { reminder_interval_days: t('reminders.daysInvalid', { max: MAX_REMINDER_DAYS }) }
      : {}),
    ...(problems.reminder_max_count
      ? { reminder_max_count: t('reminders.countInvalid', { max: MAX_REMINDER_COUNT }) }
      : {}),
    ...(problems.expiry_warning_days
      ? { expiry_warning_days: t('reminders.daysInvalid', { max: MAX_REMINDER_DAYS }) }
      : {}),
  });
}

type FormProps = {
  label: string;
  value: TReminderSettings;
  onSave: (body: TReminderSettings) => Promise<void>;
  submitLabel: string;
  /** Save is offered only once something changed (a contract's own choice), else always (the office default). */
  isChangeRequired?: boolean;
  /** Said under the fields (e.g. that a warning needs an end date). */
  note?: (form: ReminderForm) => ReactNode;
};

/** A reminder choice as a form: checked here, saved by the caller, "Saved." once it is. */
export function ReminderSettingsForm({ label, value, onSave, submitLabel, isChangeRequired = false, note }: FormProps) {
  const t = useT();
  const [form, setForm] = useState<ReminderForm>(() => reminderFormOf(value));
  const [isSaved, setIsSaved] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const toProblems = useReminderProblems();
  const save = useAction();
  const saved = JSON.stringify(value);
  // The server's values become the form's once saved (or changed elsewhere).
  if (useHasChanged(saved)) setForm(reminderFormOf(value));
  const checked = reminderBodyOf(form);
  const isChanged = 'problems' in checked || JSON.stringify(checked.body) !== saved;
  const submit = save.submit('save', async () => {
    if ('problems' in checked) {
      setProblems(toProblems(checked.problems));
      return;
    }
    setProblems({});
    await onSave(checked.body);
    setIsSaved(true);
  });
  const labels = {
    fields: {
      reminder_interval_days: t('reminders.interval'),
      reminder_max_count: t('reminders.max'),
      expiry_warning_days: t('reminders.warningDays'),
    },
  };
  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <ProblemAlert error={save.error} labels={labels} />
      {isSaved ? <Notice tone="success">{t('state.saved')}</Notice> : null}
      <ReminderFields
        form={form}
        onChange={(next) => {
          setIsSaved(false);
          setForm(next);
        }}
        errors={{ ...save.errors, ...problems }}
      />
      {note?.(form)}
      <div className="form-actions">
        <Button
          type="submit"
          variant={isChangeRequired ? 'secondary' : 'primary'}
          isBusy={save.busy === 'save'}
          disabled={isChangeRequired && !isChanged}
        >
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
