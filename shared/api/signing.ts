import { z } from 'zod';
import { ANNOTATION_TYPES, LANGUAGES, SIGN_TYPES } from './enums';

/**
 * What the party signing page reads and sends (`/sign/<token>/…`). Not part of the customer
 * API: the token in the path is the party's only credential.
 */
export const SIGNING_STAGES = [
  'needs-code',
  'waiting-turn',
  'ready',
  'accepted',
  'rejected',
  'completed',
  'closed-rejected',
  'expired',
  'draft',
] as const;

export const ZSigningFieldSchema = z.object({
  id: z.number().int(),
  type: z.enum(ANNOTATION_TYPES),
  page: z.number().int().min(1),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  isRequired: z.boolean(),
  /** Prefilled text (the annotation's content), or the value entered once signed. */
  content: z.string(),
});

export const ZSigningStateSchema = z.object({
  stage: z.enum(SIGNING_STAGES),
  language: z.enum(LANGUAGES),
  officeName: z.string(),
  contract: z.object({
    name: z.string(),
    pages: z.array(z.object({ width: z.number(), height: z.number() })),
    documentUrl: z.string(),
    signedPdfUrl: z.string().nullable(),
  }),
  party: z.object({
    name: z.string(),
    signType: z.enum(SIGN_TYPES),
    rejectCause: z.string().nullable(),
    signTime: z.string().nullable(),
    /** The party's own identity number, only when the contract shows identity numbers (show_identity_number). */
    identityNumber: z.string().nullable(),
  }),
  /** Where the one-time code went, masked (a***@example.com, +46 70 *** ** 12). */
  codeSentTo: z.string().nullable(),
  fields: z.array(ZSigningFieldSchema),
  attachments: z.array(z.object({ name: z.string(), url: z.string(), contentType: z.string() })),
  progress: z.object({ answered: z.number().int(), total: z.number().int() }),
  csrfToken: z.string(),
});

export const ZSigningAcceptSchema = z.strictObject({
  /** Field id (as a string key) to its value: text for text-like fields, true/false for checkboxes. */
  fields: z.record(z.string().regex(/^\d+$/), z.union([z.string().max(1_000), z.boolean()])),
  /** The name the party typed to sign with. */
  signatureName: z.string().min(1).max(200),
});

export const ZSigningRejectSchema = z.strictObject({ cause: z.string().trim().min(1).max(1_000) });
export const ZSigningCodeSchema = z.strictObject({ code: z.string().regex(/^\d{6}$/) });

export type TSigningField = z.infer<typeof ZSigningFieldSchema>;
export type TSigningState = z.infer<typeof ZSigningStateSchema>;
export type TSigningAccept = z.infer<typeof ZSigningAcceptSchema>;
export type SigningStage = (typeof SIGNING_STAGES)[number];
