import type { TMessagingSettingsUpdate } from '../../shared/api/messaging-settings';
import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import { logOfficeEvent } from '../activity/office-log';
import { validationFailed } from '../core/errors';
import { releaseWaitingMessages } from '../messages/release-waiting-messages';
import {
  MESSAGING_KEYS,
  readMessagingSettings,
  sealSettingValue,
  SEALED_SETTING_KEYS,
  type MessagingField,
  type MessagingSettings,
  unmask,
} from '../messages/messaging-settings';

const BODY_FIELDS: Record<keyof TMessagingSettingsUpdate, MessagingField> = {
  smtp_url: 'smtpUrl',
  mail_from: 'mailFrom',
  sms_gateway_url: 'smsGatewayUrl',
};

/**
 * Saves the mail and SMS settings; `null` removes a saved value so that the environment's
 * applies again. Messages waiting for a now-configured channel are released, and retries
 * waiting out a backoff for a changed server are brought forward, in the same transaction.
 */
export function updateMessagingSettings(ctx: AppContext, body: TMessagingSettingsUpdate): MessagingSettings {
  const before = readMessagingSettings(ctx);
  const changes = new Map<MessagingField, string | null>();
  const errors: string[] = [];
  for (const [bodyField, field] of Object.entries(BODY_FIELDS) as Array<
    [keyof TMessagingSettingsUpdate, MessagingField]
  >) {
    const value = body[bodyField];
    if (value === undefined) continue;
    if (value === null || field === 'mailFrom') {
      changes.set(field, value === null ? null : value.trim());
      continue;
    }
    const resolved = unmask(bodyField, value, before[field]);
    const refusal = typeof resolved === 'string' ? ctx.outbound.checkUrl(resolved) : undefined;
    if (typeof resolved !== 'string') errors.push(resolved.error);
    else if (refusal) errors.push(`${bodyField}: ${refusal}`);
    else changes.set(field, resolved);
  }
  if (errors.length > 0) throw validationFailed(errors);

  inTransaction(ctx.db, () => {
    const now = ctx.now();
    for (const [field, value] of changes) {
      if (value === null) ctx.repos.settings.remove(MESSAGING_KEYS[field]);
      else {
        const key = MESSAGING_KEYS[field];
        ctx.repos.settings.set(key, SEALED_SETTING_KEYS.includes(key) ? sealSettingValue(ctx, value) : value, now);
      }
    }
    const after = readMessagingSettings(ctx);
    const isMailChanged = after.smtpUrl !== before.smtpUrl || after.mailFrom !== before.mailFrom;
    if (isMailChanged && after.smtpUrl !== undefined) ctx.repos.outbox.hurryRetries('email', now);
    if (after.smsGatewayUrl !== before.smsGatewayUrl && after.smsGatewayUrl !== undefined) {
      ctx.repos.outbox.hurryRetries('sms', now);
    }
    releaseWaitingMessages(ctx);
    // Which settings changed, not their values (the URLs may hold passwords).
    if (changes.size > 0)
      logOfficeEvent(ctx, {
        event: 'settings.changed',
        subject: '/api/settings/messaging',
        details: { fields: [...changes.keys()].join(',') },
      });
  });
  ctx.outbox.wake();
  return readMessagingSettings(ctx);
}
