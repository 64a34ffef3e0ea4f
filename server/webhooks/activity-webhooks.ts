import type { OptionalWebhookEventType } from '../../shared/api/webhooks';

/**
 * The opt-in webhook events that activity-log entries raise: the log already records each of
 * these state changes in its transaction, so the event is written in the same one.
 */
export const WEBHOOK_EVENT_OF_ACTIVITY: Readonly<Record<string, OptionalWebhookEventType>> = {
  'contract.sent': 'contract.sent',
  'party.opened': 'contract.party_opened',
  'party.corrected': 'contract.party_changed',
  'party.delegated': 'contract.party_delegated',
  'party.reminded': 'contract.reminded',
  'contract.expired': 'contract.expired',
  'contract.withdrawn': 'contract.withdrawn',
  'contract.timestamped': 'contract.timestamped',
};
