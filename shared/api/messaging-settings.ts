import { z } from 'zod';
import { MAX_STRING_LENGTH } from '../constants';
import { ZOutboxMessageSchema } from './outbox';

/** Stands for a stored password on read; sent back unchanged, it keeps the stored one. */
export const SECRET_MASK = '********';

/** Where a setting's value comes from: saved in the appliance, the environment, or nowhere. */
export const SETTING_SOURCES = ['settings', 'environment'] as const;

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

export function isSmtpUrl(text: string): boolean {
  const url = parseUrl(text);
  return url !== undefined && (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
}

export function isHttpUrl(text: string): boolean {
  const url = parseUrl(text);
  return url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
}

const ADDRESS = String.raw`[^\s@<>",;]+@[^\s@<>",;]+`;
const MAIL_FROM_PATTERN = new RegExp(String.raw`^(${ADDRESS}|[^<>\r\n]*<${ADDRESS}>)$`);

/** `office@example.com` or `Office Name <office@example.com>`. */
export function isMailFrom(text: string): boolean {
  return MAIL_FROM_PATTERN.test(text.trim());
}

const source = z.enum(SETTING_SOURCES).nullable();

export const ZMessagingSettingsSchema = z
  .object({
    smtp_url: z.string().nullable().meta({
      description: 'smtp:// or smtps:// URL of the outgoing mail server; its password is shown as ********',
      example: 'smtps://office:********@mail.example.com:465',
    }),
    mail_from: z
      .string()
      .nullable()
      .meta({ description: 'Sender of every e-mail', example: 'Office <office@example.com>' }),
    sms_gateway_url: z.string().nullable().meta({
      description: 'URL that takes an HTTP POST of JSON {to, body} per SMS; a password in it is shown as ********',
    }),
    sources: z.object({ smtp_url: source, mail_from: source, sms_gateway_url: source }).meta({
      description:
        'Where each value comes from: saved settings, the environment (SMTP_URL, MAIL_FROM, SMS_GATEWAY_URL) or nowhere (null)',
    }),
  })
  .meta({ id: 'MessagingSettings' });

const setting = (isValid: (text: string) => boolean, message: string) =>
  z
    .string()
    .min(1, { abort: true })
    .max(MAX_STRING_LENGTH, { abort: true })
    .refine(isValid, message)
    .nullable()
    .optional();

export const ZMessagingSettingsUpdateSchema = z
  .strictObject({
    smtp_url: setting(
      isSmtpUrl,
      'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465',
    ),
    mail_from: setting(isMailFrom, 'must be an e-mail address, optionally with a name: Office <office@example.com>'),
    sms_gateway_url: setting(isHttpUrl, 'must be an http:// or https:// URL'),
  })
  .meta({
    id: 'MessagingSettingsUpdate',
    description:
      'Only the fields sent change. null removes the saved value, so the environment value (if any) applies again.',
  });

export const MESSAGING_SETTINGS_READ_ONLY_FIELDS = ['sources'] as const;

export const ZMessagingTestSchema = z
  .strictObject({
    to: z.email().max(MAX_STRING_LENGTH),
    smtp_url: setting(
      isSmtpUrl,
      'must be an smtp:// or smtps:// URL with a host, e.g. smtps://user:password@mail.example.com:465',
    ).meta({
      description:
        'Test this server instead of the saved one (the form as it is, saved or not); ******** as the password keeps the saved one',
    }),
    mail_from: setting(
      isMailFrom,
      'must be an e-mail address, optionally with a name: Office <office@example.com>',
    ).meta({ description: 'Test with this sender' }),
  })
  .meta({ id: 'MessagingTest' });

export const ZMessagingTestResultSchema = z
  .object({
    ok: z.boolean().meta({ description: 'The SMTP server accepted the test e-mail' }),
    response: z.string().nullable().meta({ description: 'The SMTP server reply' }),
    error: z.string().nullable(),
    message: ZOutboxMessageSchema,
  })
  .meta({ id: 'MessagingTestResult' });

export type TMessagingSettings = z.infer<typeof ZMessagingSettingsSchema>;
export type TMessagingSettingsUpdate = z.infer<typeof ZMessagingSettingsUpdateSchema>;
export type TMessagingTestResult = z.infer<typeof ZMessagingTestResultSchema>;
export type SettingSource = (typeof SETTING_SOURCES)[number];
