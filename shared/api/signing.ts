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
  'withdrawn',
  'draft',
] as const;

import { SCRIPT_FACES } from '../signing-page';

export { PAGE_IMAGE_SIZES, PAGE_IMAGE_WIDTHS, pageImageSrcset, SCRIPT_FACES, type ScriptFace } from '../signing-page';

/** A drawn or uploaded mark: a PNG or JPEG as a data URL, at most 1 MiB of image. */
export const MAX_MARK_BYTES = 1024 * 1024;
const imageDataUrl = z
  .string()
  .max(Math.ceil((MAX_MARK_BYTES * 4) / 3) + 40)
  .regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/, 'must be a PNG or JPEG image as a base64 data: URL');

export const ZSigningMarkSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('typed'), face: z.enum(SCRIPT_FACES) }),
  z.strictObject({ kind: z.enum(['drawn', 'uploaded']), signature: imageDataUrl, initials: imageDataUrl.optional() }),
]);

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
    /** Page images: `${base}/${page}-${width}.webp` for each width of `widths`; null while the document is not to be seen. */
    pageImages: z.object({ base: z.string(), widths: z.array(z.number().int()) }).nullable(),
    /** Milliseconds until the links close (expire_time), null without one. */
    expiresInMs: z.number().nullable(),
  }),
  /** The office's date (YYYY-MM-DD, its time zone): what DATE fields are stamped with today. */
  today: z.string(),
  /** For pages shown inside an integrator's web app: where events may be posted, and what they name. */
  embedding: z.object({ frameOrigins: z.array(z.string()), contract: z.string(), party: z.string() }),
  party: z.object({
    name: z.string(),
    signType: z.enum(SIGN_TYPES),
    rejectCause: z.string().nullable(),
    signTime: z.string().nullable(),
    /** The party's own identity number, only when the contract shows identity numbers (show_identity_number). */
    identityNumber: z.string().nullable(),
    /** The contract allows delegation and the party may answer now: it may hand its turn to someone else. */
    mayDelegate: z.boolean(),
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
  /** The party's mark (signers only): the name typed in a script face, drawn, or an uploaded image. Default: typed in the first face. */
  mark: ZSigningMarkSchema.optional(),
});

export const ZSigningRejectSchema = z.strictObject({ cause: z.string().trim().min(1).max(1_000) });
export const ZSigningCodeSchema = z.strictObject({ code: z.string().regex(/^\d{6}$/) });

export type TSigningField = z.infer<typeof ZSigningFieldSchema>;
export type TSigningState = z.infer<typeof ZSigningStateSchema>;
export type TSigningAccept = z.infer<typeof ZSigningAcceptSchema>;
export type TSigningMark = z.infer<typeof ZSigningMarkSchema>;
export type SigningStage = (typeof SIGNING_STAGES)[number];

export const ZTestAnswerSchema = z
  .strictObject({
    answer: z
      .enum(['accept', 'reject'])
      .meta({ description: 'accept: the party signs (or approves); reject: it rejects' }),
    signature_name: z
      .string()
      .max(1_000)
      .optional()
      .meta({ description: "The name the party signs with; default the party's name", example: 'Signe Svensson' }),
    fields: z
      .record(z.string().regex(/^\d+$/), z.union([z.string().max(1_000), z.boolean()]))
      .optional()
      .meta({
        description:
          "The party's field values by annotation id (the last segment of the annotation's self): text, or true/false for a checkbox",
        example: { '2': 'Lgh 1102' },
      }),
    cause: z
      .string()
      .max(1_000)
      .optional()
      .meta({ description: 'Why it rejects (answer reject)', example: 'Wrong rent' }),
  })
  .meta({ id: 'ApiTestAnswer', description: "A party's answer given through the API, for test contracts only" });
export type TTestAnswer = z.infer<typeof ZTestAnswerSchema>;
