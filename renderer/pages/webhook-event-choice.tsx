import { OPTIONAL_WEBHOOK_EVENT_TYPES, type OptionalWebhookEventType } from '../../shared/api/webhooks';
import { CheckboxField } from '../components/fields';
import type { MessageKey } from '../i18n/en';
import { useT } from '../lib/i18n';

const LABELS: Record<OptionalWebhookEventType, MessageKey> = {
  'contract.sent': 'webhooks.event.sent',
  'contract.party_opened': 'webhooks.event.partyOpened',
  'contract.party_changed': 'webhooks.event.partyChanged',
  'contract.party_delegated': 'webhooks.event.partyDelegated',
  'contract.reminded': 'webhooks.event.reminded',
  'contract.expired': 'webhooks.event.expired',
  'contract.withdrawn': 'webhooks.event.withdrawn',
  'contract.timestamped': 'webhooks.event.timestamped',
};

/**
 * The opt-in events a consumer receives beyond the three every consumer gets (signed, rejected,
 * party signed), which are said in words and cannot be turned off.
 */
export function EventChoice({
  value,
  onValue,
}: {
  value: readonly OptionalWebhookEventType[];
  onValue: (events: OptionalWebhookEventType[]) => void;
}) {
  const t = useT();
  const toggle = (type: OptionalWebhookEventType, isOn: boolean) =>
    onValue(OPTIONAL_WEBHOOK_EVENT_TYPES.filter((each) => (each === type ? isOn : value.includes(each))));
  return (
    <fieldset className="event-choice">
      <legend>{t('webhooks.eventsLegend')}</legend>
      <p className="small muted">{t('webhooks.eventsAlways')}</p>
      {OPTIONAL_WEBHOOK_EVENT_TYPES.map((type) => (
        <CheckboxField
          key={type}
          label={`${t(LABELS[type])} (${type})`}
          checked={value.includes(type)}
          onChecked={(isOn) => toggle(type, isOn)}
        />
      ))}
    </fieldset>
  );
}
