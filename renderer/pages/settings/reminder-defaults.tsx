import { useEffect, useState } from 'react';
import type { TReminderSettings } from '../../../shared/api/reminders';
import { reminderBodyOf, ReminderFields, reminderFormOf, useReminderProblems, type ReminderForm } from '../../components/reminder-fields';
import { Button, Card, Loading, Notice, ProblemAlert } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useAction } from '../../lib/use-action';
import { useLoad } from '../../lib/use-load';

/** The office's default reminders: what every new contract gets. */
export function ReminderDefaults() {
  const t = useT();
  const loaded = useLoad((signal) => getJson<TReminderSettings>('/api/settings/reminders', signal).catch(() => undefined), []);
  const [form, setForm] = useState<ReminderForm>();
  const [isSaved, setIsSaved] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const toProblems = useReminderProblems();
  const save = useAction();
  useEffect(() => {
    if (loaded.data) setForm(reminderFormOf(loaded.data));
  }, [loaded.data]);
  // A server without reminders yet: the card is left out rather than failing.
  if (!loaded.isLoading && !loaded.data) return null;
  const labels = { fields: { reminder_interval_days: t('reminders.interval'), reminder_max_count: t('reminders.max'), expiry_warning_days: t('reminders.warningDays') } };
  const submit = save.submit('save', async () => {
    if (!form) return;
    const checked = reminderBodyOf(form);
    if ('problems' in checked) {
      setProblems(toProblems(checked.problems));
      return;
    }
    setProblems({});
    await sendJson('PUT', '/api/settings/reminders', checked.body);
    await loaded.reload();
    setIsSaved(true);
  });
  return (
    <Card title={t('settings.reminders')} description={t('settings.remindersDescription')}>
      {form ? (
        <form onSubmit={submit} noValidate aria-label={t('settings.reminders')}>
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
          <div className="form-actions">
            <Button type="submit" variant="primary" isBusy={save.busy === 'save'}>
              {t('action.save')}
            </Button>
          </div>
        </form>
      ) : (
        <Loading />
      )}
    </Card>
  );
}
