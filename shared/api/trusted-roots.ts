import { z } from 'zod';
import { ZTimestampSchema } from './common';

/** At most this many trusted roots; a PEM certificate at most this long. */
export const MAX_TRUSTED_ROOTS = 50;
export const MAX_TRUSTED_ROOT_PEM_LENGTH = 16 * 1024;

export const ZTrustedRootSchema = z
  .object({
    self: z.string().meta({ example: '/api/settings/timestamps/trusted_roots/1' }),
    subject: z.string().meta({ example: 'O=Example Trust Services, CN=Example Root CA' }),
    issuer: z.string().meta({ description: 'The same as subject for a self-signed root' }),
    sha256: z.string().meta({ description: "The certificate's SHA-256 fingerprint, lower-case hex" }),
    not_before: ZTimestampSchema,
    not_after: ZTimestampSchema,
    is_self_signed: z.boolean(),
    is_expired: z.boolean(),
    added_time: ZTimestampSchema,
  })
  .meta({ id: 'TrustedRoot' });

export const ZTrustedRootsSchema = z.object({ roots: z.array(ZTrustedRootSchema) }).meta({
  id: 'TrustedRoots',
  description:
    "Certificates of certificate authorities (a root, or an intermediate) that long-term validation may use to complete a timestamp authority's chain when its tokens leave them out and no CA Issuers address gives them",
});

export const ZTrustedRootCreateSchema = z
  .strictObject({
    certificate: z
      .string()
      .min(1, { abort: true })
      .max(MAX_TRUSTED_ROOT_PEM_LENGTH, { abort: true })
      .meta({ description: 'One CA certificate, PEM (-----BEGIN CERTIFICATE-----…)' }),
  })
  .meta({ id: 'TrustedRootCreate' });

export type TTrustedRoot = z.infer<typeof ZTrustedRootSchema>;
export type TTrustedRoots = z.infer<typeof ZTrustedRootsSchema>;
export type TTrustedRootCreate = z.infer<typeof ZTrustedRootCreateSchema>;
