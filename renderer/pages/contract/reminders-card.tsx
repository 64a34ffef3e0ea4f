import type { TContract } from '../../../shared/api/contracts';
import type { TReminderSettings } from '../../../shared/api/reminders';
import { ReminderSettingsForm } from '../../components/reminder-fields';
import { Card } from '../../components/ui';
import { sendJson } from '../../lib/api';
import { useT } from '../../lib/i18n';
import type { PartyView } from '../../lib/party-state';
import type { ContractView } from './use-contract';

const settingsOf = (contract: TContract): TReminderSettings => ({
  reminder_interval_days: contract.reminder_interval_days,
  reminder_max_count: contract.reminder_max_count,
  expiry_warning_days: contract.expiry_warning_days,
});

/** The parties whose answer is awaited now: those the next reminder goes to. */
const awaitedOf = (views: PartyView[]) =>
  views.filter((view) => view.isAnswering && (view.state === 'invited' || view.state === 'opened'));

/** Where the reminders stand: the next one and how many went, the expiry warning. */
function ReminderStatus({ view }: { view: ContractView }) {
  const t = useT();
  const { contract, status } = view;
  const lines: string[] = [];
  if (status === 'sent') {
    const sent = Math.max(0, ...awaitedOf(view.views).map((party) => party.party.reminders_sent));
    if (contract.next_reminder_time)
      lines.push(
        t('reminders.next', { time: contract.next_reminder_time.slice(0, 16), sent, max: contract.reminder_max_count }),
      );
    else if (contract.reminder_interval_days === null) lines.push(t('reminders.off'));
    else lines.push(t('reminders.noneAhead', { sent, max: contract.reminder_max_count }));
    if (contract.expiry_warning_time)
      lines.push(t('reminders.warningOn', { time: contract.expiry_warning_time.slice(0, 16) }));
  }
  if (contract.expiry_warned_time)
    lines.push(t('reminders.warnedAt', { time: contract.expiry_warned_time.slice(0, 16) }));
  if (status !== 'draft' && status !== 'sent') lines.push(t('reminders.closed'));
  if (lines.length === 0) return null;
  return (
    <ul className="reminder-status" data-testid="reminder-status">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * The contract's reminders: where they stand, and the choice, changeable while a draft and while
 * out for signing (PUT /reminders, the one change a sent contract takes).
 */
export function RemindersCard({ view, onSaved }: { view: ContractView; onSaved: () => Promise<void> }) {
  const t = useT();
  const { contract, status } = view;
  const save = async (body: TReminderSettings) => {
    await sendJson('PUT', `${contract.self}/reminders`, body);
    await onSaved();
  };
  return (
    <Card title={t('reminders.title')} description={t('reminders.description')}>
      <ReminderStatus view={view} />
      {status === 'draft' || status === 'sent' ? (
        <ReminderSettingsForm
          label={t('reminders.title')}
          value={settingsOf(contract)}
          onSave={save}
          submitLabel={t('reminders.save')}
          isChangeRequired
          note={(form) =>
            form.isWarning && !contract.expire_time ? <p className="field-hint">{t('reminders.needsExpiry')}</p> : null
          }
        />
      ) : null}
    </Card>
  );
}
