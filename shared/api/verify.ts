import { z } from 'zod';

/** The largest PDF the public verify page reads (a sealed contract of the largest upload is well under it). */
export const MAX_VERIFY_BYTES = 16 * 1024 * 1024;

/**
 * What the public verify page (`POST /verify/check`, a PDF as the body) answers:
 * - intact: the file is exactly the PDF this office sealed, not a byte changed or added
 * - extended: the sealed document, with validation data added: every update after the seal adds
 *   only what PAdES allows after it (document timestamps, the DSS), by this office or by another tool
 * - changed: the sealed document is intact, but something was changed after the seal that PAdES does
 *   not allow (a page's content, an annotation, another signature), or its signature container differs
 * - same-pages: this office's seal is in the file and the pages are those it sealed, but the file's
 *   bytes differ (another program saved it again): the seal no longer covers this file
 * - damaged: the bytes this office sealed are intact, but the seal's signature container is damaged
 * - broken: signed with this office's seal certificate, but the sealed bytes were changed: the seal does not verify
 * - unknown-seal: a valid seal by this office's certificate, but no contract here has those bytes
 * - not-sealed-here: no seal of this office
 * - not-pdf: the file is not a PDF
 */
export const VERIFY_VERDICTS = [
  'intact',
  'extended',
  'changed',
  'same-pages',
  'damaged',
  'broken',
  'unknown-seal',
  'not-sealed-here',
  'not-pdf',
] as const;

export const ZVerifyResultSchema = z.object({
  verdict: z.enum(VERIFY_VERDICTS),
  /** The office this appliance serves (its name in the settings): every verdict is this office's. */
  office: z.object({ name: z.string() }),
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
  /**
   * Each incremental update after the seal (for extended and changed): what it adds, and the
   * document timestamp that covers it, whose authority vouches for it (null: no timestamp covers it).
   */
  additions: z.array(
    z.object({
      timestamps: z.number().int(),
      validation_data: z.boolean(),
      signed_by: z.string().nullable(),
      signed_time: z.string().nullable().meta({ description: 'ISO 8601 UTC' }),
    }),
  ),
  /** What was changed after the seal that PAdES does not allow (for changed), in words. */
  changes: z.array(z.string()),
  /** Other signatures in the file (by others), for the record. */
  other_signatures: z.number().int(),
});

export type TVerifyResult = z.infer<typeof ZVerifyResultSchema>;
export type VerifyVerdict = (typeof VERIFY_VERDICTS)[number];
