import { z } from 'zod';

/** The largest PDF the public verify page reads (a sealed contract of the largest upload is well under it). */
export const MAX_VERIFY_BYTES = 16 * 1024 * 1024;

/**
 * What the public verify page (`POST /verify/check`, a PDF as the body) answers:
 * - intact: sealed by this appliance, and not a byte changed since (other than this appliance's own document timestamp)
 * - changed: sealed by this appliance and what it signs is intact, but the file differs from what was issued (bytes added after the seal, or its signature container changed)
 * - broken: signed with this appliance's seal certificate, but the sealed bytes were changed: the seal does not verify
 * - unknown-seal: a valid seal by this appliance's certificate, but no contract here has those bytes
 * - not-sealed-here: no seal of this appliance
 * - not-pdf: the file is not a PDF
 */
export const VERIFY_VERDICTS = ['intact', 'changed', 'broken', 'unknown-seal', 'not-sealed-here', 'not-pdf'] as const;

export const ZVerifyResultSchema = z.object({
  verdict: z.enum(VERIFY_VERDICTS),
  sha256: z.string(),
  size: z.number().int(),
  /** Only when the file's sealed part is the very PDF this appliance sealed: the viewer holds that PDF. */
  contract: z
    .object({
      name: z.string(),
      parties: z.array(z.object({ name: z.string(), role: z.string() })),
      signed_time: z.string().nullable().meta({ description: 'ISO 8601 UTC' }),
    })
    .nullable(),
  seal: z
    .object({
      subject: z.string(),
      certificate_sha256: z.string(),
      is_valid: z.boolean(),
      problem: z.string().nullable(),
    })
    .nullable(),
  /** Bytes after the seal that are not this appliance's own document timestamp. */
  added_bytes: z.number().int(),
  timestamps: z.array(
    z.object({
      kind: z.enum(['signature', 'document']),
      time: z.string().meta({ description: "The authority's time, ISO 8601 UTC" }),
      authority: z.string(),
      is_valid: z.boolean(),
      problem: z.string().nullable(),
    }),
  ),
  /** The seal's own bytes (its signature container, outside what it signs) differ from the file sealed here. */
  is_container_changed: z.boolean(),
  /** The appliance holds a newer copy of this PDF: the same seal with a document timestamp appended. */
  has_newer_copy: z.boolean(),
  /** Other signatures in the file (by others), for the record. */
  other_signatures: z.number().int(),
});

export type TVerifyResult = z.infer<typeof ZVerifyResultSchema>;
export type VerifyVerdict = (typeof VERIFY_VERDICTS)[number];
