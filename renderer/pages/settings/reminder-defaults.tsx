import type { TReminderSettings } from '../../../shared/api/reminders';
import { ReminderSettingsForm } from '../../components/reminder-fields';
import { Card, Loading } from '../../components/ui';
import { getJson, sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import { useLoad } from '../../lib/use-load';

/** The office's default reminders: what every new contract gets. */
export function ReminderDefaults() {
  const t = useT();
  const loaded = useLoad(
    (signal) => getJson<TReminderSettings>('/api/settings/reminders', signal).catch(() => undefined),
    [],
  );
  // A server without reminders yet: the card is left out rather than failing.
  if (!loaded.isLoading && !loaded.data) return null;
  const save = async (body: TReminderSettings) => {
    await sendJson('PUT', '/api/settings/reminders', body);
    await loaded.reload();
  };
  return (
    <Card title={t('settings.reminders')} description={t('settings.remindersDescription')}>
      {loaded.data ? (
        <ReminderSettingsForm
          label={t('settings.reminders')}
          value={loaded.data}
          onSave={save}
          submitLabel={t('action.save')}
        />
      ) : (
        <Loading />
      )}
    </Card>
  );
}
