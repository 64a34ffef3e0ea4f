import { z } from 'zod';
import { ZTimestampSchema } from './common';
import { SETTING_SOURCES } from './messaging-settings';

/** A DNS name a public CA can issue for: letters in it (not an IP address), no wildcard, no scheme. */
export function isDnsName(text: string): boolean {
  return (
    text.length <= 253 &&
    /^(?=.*[a-z])[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i.test(text)
  );
}

export const ZAcmeCertificateSchema = z
  .object({
    subject: z.string().meta({ description: "The certificate's subject", example: 'CN=sign.office.example' }),
    domains: z
      .array(z.string())
      .meta({ description: 'The DNS names it is valid for', example: ['sign.office.example'] }),
    issuer: z
      .string()
      .meta({ description: "Who issued it (the CA's intermediate)", example: "C=US, O=Let's Encrypt, CN=R11" }),
    serial: z
      .string()
      .meta({ description: 'Its serial number (hex)', example: '04A1B2C3D4E5F60718293A4B5C6D7E8F9A0B' }),
    not_before: ZTimestampSchema,
    not_after: ZTimestampSchema.meta({ description: 'When it expires' }),
    renewal_time: ZTimestampSchema.meta({
      description: 'When a new one is ordered: a third of its lifetime before it expires',
    }),
  })
  .meta({ id: 'AcmeCertificate' });

export const ZAcmeStatusSchema = z
  .object({
    is_enabled: z
      .boolean()
      .meta({ description: 'The public listener gets its certificate from an ACME CA (ACME_DOMAIN is set)' }),
    domain: z.string().nullable().meta({ description: 'ACME_DOMAIN', example: 'sign.office.example' }),
    email: z.string().nullable().meta({ description: "ACME_EMAIL: the CA's contact for the account (expiry notices)" }),
    directory_url: z.string().nullable().meta({
      description: "ACME_DIRECTORY_URL: the CA's directory",
      example: 'https://acme-v02.api.letsencrypt.org/directory',
    }),
    challenge_port: z.number().int().nullable().meta({
      description: 'Where the plain-HTTP listener answers the CA (ACME_HTTP_PORT; port 80 from the internet)',
    }),
    certificate: ZAcmeCertificateSchema.nullable().meta({ description: 'The certificate served now; null: none yet' }),
    configured_domain: z.string().nullable().meta({
      description: 'The domain the next start uses: the saved one (settings) wins over ACME_DOMAIN',
    }),
    source: z
      .enum(SETTING_SOURCES)
      .nullable()
      .meta({ description: 'Where configured_domain comes from: saved settings, the environment, or nowhere' }),
    is_restart_needed: z.boolean().meta({
      description: 'The configured domain is not the one in force: it takes effect when SignDesk next starts',
    }),
    is_obtaining: z.boolean().meta({ description: 'An order is under way now' }),
    next_attempt_time: ZTimestampSchema.nullable().meta({
      description: 'When the certificate is looked at next: its renewal time, or the next try after a failure',
    }),
    last_renewal_time: ZTimestampSchema.nullable().meta({ description: 'When the last certificate was obtained' }),
    last_attempt_time: ZTimestampSchema.nullable().meta({ description: 'When the last order began' }),
    last_error: z.string().nullable().meta({
      description: 'Why the last order failed (the certificate in force is still served); null after a success',
    }),
  })
  .meta({ id: 'AcmeStatus' });

export type TAcmeStatus = z.infer<typeof ZAcmeStatusSchema>;

export const ZAcmeSettingsUpdateSchema = z
  .strictObject({
    domain: z
      .string()
      .max(253)
      .refine(isDnsName, 'must be a DNS name such as sign.office.example')
      .transform((text) => text.toLowerCase())
      .nullable()
      .optional(),
    email: z.email().max(254).nullable().optional(),
  })
  .meta({
    id: 'AcmeSettingsUpdate',
    description:
      'Saved values win over ACME_DOMAIN and ACME_EMAIL (the desktop app has no environment); null removes the saved value. The domain takes effect when SignDesk next starts (with a party listener, PUBLIC_PORT), the e-mail at the next order.',
  });

export type TAcmeSettingsUpdate = z.infer<typeof ZAcmeSettingsUpdateSchema>;

/** What GET answers beside the two saved fields: a PUT may send them back and they are ignored. */
export const ACME_STATUS_READ_ONLY_FIELDS = [
  'is_enabled',
  'directory_url',
  'challenge_port',
  'certificate',
  'configured_domain',
  'source',
  'is_restart_needed',
  'is_obtaining',
  'next_attempt_time',
  'last_renewal_time',
  'last_attempt_time',
  'last_error',
] as const;
