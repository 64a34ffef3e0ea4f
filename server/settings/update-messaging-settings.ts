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
export async function updateMessagingSettings(
  ctx: AppContext,
  body: TMessagingSettingsUpdate,
): Promise<MessagingSettings> {
  const before = await readMessagingSettings(ctx);
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

  await inTransaction(ctx.db, async () => {
    const now = ctx.now();
    for (const [field, value] of changes) {
      if (value === null) await ctx.repos.settings.remove(MESSAGING_KEYS[field]);
      else {
        const key = MESSAGING_KEYS[field];
        await ctx.repos.settings.set(
          key,
          SEALED_SETTING_KEYS.includes(key) ? sealSettingValue(ctx, value) : value,
          now,
        );
      }
    }
    const after = await readMessagingSettings(ctx);
    const isMailChanged = after.smtpUrl !== before.smtpUrl || after.mailFrom !== before.mailFrom;
    if (isMailChanged && after.smtpUrl !== undefined) await ctx.repos.outbox.hurryRetries('email', now);
    if (after.smsGatewayUrl !== before.smsGatewayUrl && after.smsGatewayUrl !== undefined) {
      await ctx.repos.outbox.hurryRetries('sms', now);
    }
    await releaseWaitingMessages(ctx);
    // Which settings changed, not their values (the URLs may hold passwords).
    if (changes.size > 0)
      await logOfficeEvent(ctx, {
        event: 'settings.changed',
        subject: '/api/settings/messaging',
        details: { fields: [...changes.keys()].join(',') },
      });
  });
  ctx.outbox.wake();
  return readMessagingSettings(ctx);
}
