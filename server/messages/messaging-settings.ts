import type { ReadContext } from '../context/read-context';
import { SECRET_MASK, type SettingSource, type TMessagingSettings } from '../../shared/api/messaging-settings';
import type { AppContext } from '../context/app-context';
import { isSealed } from '../crypto/app-secret';
import { DKIM_KEYS, readDkim, type DkimKey } from './mail/dkim';

/** The keys of the messaging settings in the settings table. */
export const MESSAGING_KEYS = {
  smtpUrl: 'messaging.smtp_url',
  mailFrom: 'messaging.mail_from',
  smsGatewayUrl: 'messaging.sms_gateway_url',
} as const;

export type MessagingField = keyof typeof MESSAGING_KEYS;

/** The settings in force: a saved value wins over the environment's. */
export type MessagingSettings = Record<MessagingField, string | undefined> & {
  sources: Record<MessagingField, SettingSource | null>;
  /** Mails are DKIM-signed with this key when the office gave one (PUT /api/settings/dkim). */
  dkim?: DkimKey | undefined;
};

const FIELDS = Object.keys(MESSAGING_KEYS) as MessagingField[];

function environmentValue(ctx: ReadContext, field: MessagingField): string | undefined {
  return ctx.config[field];
}

/** The settings that may hold a password (user:password@ in the URL): stored sealed under the app secret. */
export const SEALED_SETTING_KEYS: readonly string[] = [
  MESSAGING_KEYS.smtpUrl,
  MESSAGING_KEYS.smsGatewayUrl,
  DKIM_KEYS.privateKey,
];

export const sealSettingValue = (ctx: AppContext, value: string): string => ctx.secret.seal('setting', value);

/** A saved value as written; a sealed one that this installation's keys cannot open counts as not saved. */
export function openSettingValue(ctx: ReadContext, key: string, stored: string | undefined): string | undefined {
  if (stored === undefined || !SEALED_SETTING_KEYS.includes(key) || !isSealed(stored)) return stored;
  const value = ctx.secret.open('setting', stored);
  if (value === undefined)
    ctx.logger.warn({ key }, "a saved setting is sealed under another installation's key and is ignored");
  return value;
}

export async function readMessagingSettings(ctx: ReadContext): Promise<MessagingSettings> {
  const saved = await ctx.repos.settings.getMany(Object.values(MESSAGING_KEYS));
  const settings = { sources: {} } as MessagingSettings;
  for (const field of FIELDS) {
    const savedValue = openSettingValue(ctx, MESSAGING_KEYS[field], saved.get(MESSAGING_KEYS[field]));
    const envValue = environmentValue(ctx, field);
    settings[field] = savedValue ?? envValue;
    settings.sources[field] = savedValue !== undefined ? 'settings' : envValue !== undefined ? 'environment' : null;
  }
  settings.dkim = await readDkim(ctx, (key, stored) => openSettingValue(ctx, key, stored));
  return settings;
}

/** The URL with its password (if any) replaced by the mask. */
export function maskUrlPassword(text: string | undefined): string | null {
  if (text === undefined) return null;
  try {
    const url = new URL(text);
    if (url.password === '') return text;
    url.password = SECRET_MASK;
    return url.href;
  } catch {
    return SECRET_MASK;
  }
}

export function presentMessagingSettings(settings: MessagingSettings): TMessagingSettings {
  return {
    smtp_url: maskUrlPassword(settings.smtpUrl),
    mail_from: settings.mailFrom ?? null,
    sms_gateway_url: maskUrlPassword(settings.smsGatewayUrl),
    sources: {
      smtp_url: settings.sources.smtpUrl,
      mail_from: settings.sources.mailFrom,
      sms_gateway_url: settings.sources.smsGatewayUrl,
    },
  };
}

/** Which channel a configured URL feeds. */
export const CHANNEL_OF_URL = { smtpUrl: 'email', smsGatewayUrl: 'sms' } as const;

/**
 * A URL read back from GET carries the mask instead of its password: sent back, it means
 * "keep the password you have".
 */
export function unmask(bodyField: string, incoming: string, current: string | undefined): string | { error: string } {
  const url = new URL(incoming);
  if (url.password !== SECRET_MASK) return incoming;
  const currentPassword = current === undefined ? '' : new URL(current).password;
  if (currentPassword === '') {
    return {
      error: `${bodyField}: ${SECRET_MASK} stands for a saved password, but none is saved; send the password itself`,
    };
  }
  url.password = currentPassword;
  return url.href;
}
