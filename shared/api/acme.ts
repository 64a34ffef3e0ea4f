import { z } from 'zod';
import { ZTimestampSchema } from './common';

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
