import { z } from 'zod';
import { isValidTimeZone } from '../time';
import { shortText } from './common';

export const ZGeneralSettingsSchema = z
  .object({
    office_name: z.string(),
    office_email: z.string(),
    public_base_url: z
      .string()
      .nullable()
      .meta({ description: 'The setting; null: the default (PUBLIC_BASE_URL or http://HOST:PORT)' }),
    effective_public_base_url: z.string().meta({ description: 'The base of every link handed out now' }),
    time_zone: z
      .string()
      .nullable()
      .meta({ description: 'The setting; null: the default (TZ, else Europe/Stockholm)' }),
    effective_time_zone: z.string(),
    signing_frame_origins: z.array(z.string()).meta({
      description:
        "Origins (scheme://host[:port]) of web apps that may show parties' signing pages in a frame and receive its events; empty: none may",
    }),
  })
  .meta({ id: 'GeneralSettings' });

const baseUrl = z
  .url({ protocol: /^https?$/ })
  .max(1_000)
  .refine((text) => {
    // Runs even when the URL check above failed: a text that is no URL at all is simply refused.
    try {
      const url = new URL(text);
      return url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL without query, fragment or credentials');

/** A host name of letters, digits, dots and hyphens, or an IPv6 address: never a wildcard such as `*.example`. */
const PLAIN_HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/i;

/**
 * An origin as browsers compare them: http(s), one host, an optional port, nothing after. A
 * wildcard would pass the URL parser and go into `frame-ancestors` as any subdomain, while the
 * page's events (`postMessage` to that exact origin) would reach none of them.
 */
const frameOrigin = z
  .string()
  .max(300)
  .refine((text) => {
    try {
      const url = new URL(text);
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        PLAIN_HOST.test(url.hostname) &&
        url.origin === text.replace(/\/$/, '')
      );
    } catch {
      return false;
    }
  }, 'must be one origin such as https://app.example.com or http://localhost:3000, without a path or a wildcard');

export const ZGeneralSettingsUpdateSchema = z
  .strictObject({
    office_name: shortText().min(1).optional(),
    office_email: z.email().max(1_000).optional(),
    public_base_url: baseUrl.nullable().optional(),
    time_zone: z
      .string()
      .max(100)
      .refine(isValidTimeZone, 'must be an IANA time zone such as Europe/Stockholm')
      .nullable()
      .optional(),
    signing_frame_origins: z.array(frameOrigin).max(20).optional(),
  })
  .meta({ id: 'GeneralSettingsUpdate' });

export const GENERAL_SETTINGS_READ_ONLY_FIELDS = ['effective_public_base_url', 'effective_time_zone'] as const;

export const ZSigningCertificateSchema = z
  .object({
    is_available: z.boolean().meta({ description: 'false: this build has no signing certificate support yet' }),
    subject: z.string().nullable(),
    issuer: z.string().nullable(),
    fingerprint: z.string().nullable().meta({ description: 'SHA-256 of the certificate' }),
    not_before: z.string().nullable(),
    not_after: z.string().nullable(),
    is_self_signed: z.boolean().nullable(),
    source: z.string().nullable().meta({ description: 'self-made (at first run) or imported' }),
    key_algorithm: z.string().nullable(),
  })
  .meta({ id: 'SigningCertificate' });

export const ZSigningCertificateImportSchema = z
  .strictObject({
    pkcs12: z.base64().max(1_000_000).meta({ description: 'The PKCS#12 (.p12/.pfx) file, base64' }),
    passphrase: z.string().max(1_000),
  })
  .meta({ id: 'SigningCertificateImport' });

export type TGeneralSettings = z.infer<typeof ZGeneralSettingsSchema>;
export type TGeneralSettingsUpdate = z.infer<typeof ZGeneralSettingsUpdateSchema>;
export type TSigningCertificate = z.infer<typeof ZSigningCertificateSchema>;
