import { z } from 'zod';
import { ANNOTATION_TYPES, LANGUAGES, SIGN_TYPES } from './enums';
import { MAX_UPLOAD_BYTES } from '../constants';

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

import { MAX_MARK_BYTES, SCRIPT_FACES } from '../signing-page';

export {
  MAX_MARK_BYTES,
  PAGE_IMAGE_SIZES,
  PAGE_IMAGE_WIDTHS,
  pageImageSrcset,
  SCRIPT_FACES,
  type ScriptFace,
} from '../signing-page';
const imageDataUrl = z
  .string()
  .max(Math.ceil((MAX_MARK_BYTES * 4) / 3) + 40)
  .regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/, 'must be a PNG or JPEG image as a base64 data: URL');

export const ZSigningMarkSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('typed'), face: z.enum(SCRIPT_FACES) }),
  z.strictObject({ kind: z.enum(['drawn', 'uploaded']), signature: imageDataUrl, initials: imageDataUrl.optional() }),
]);

/** The largest file a party may attach to an ATTACHMENT field: as for a contract's attachments. */
export const MAX_FIELD_FILE_BYTES = MAX_UPLOAD_BYTES;
const MAX_FIELD_FILE_BASE64 = Math.ceil(MAX_FIELD_FILE_BYTES / 3) * 4;

/** A file for an ATTACHMENT field, sent with the answer: its name, type and bytes (base64). */
export const ZFieldAnswerFileSchema = z
  .strictObject({
    file_name: z.string().trim().min(1).max(255).meta({ example: 'passport.pdf' }),
    content_type: z
      .string()
      .regex(/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i, 'must be a media type such as application/pdf')
      .meta({ example: 'application/pdf' }),
    data: z
      .string()
      .min(1)
      .max(MAX_FIELD_FILE_BASE64, 'the file is larger than 2 MiB (2,097,152 bytes)')
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be the file in base64')
      .meta({ description: 'The bytes, base64; at most 2 MiB once decoded', example: 'JVBERi0xLjcK' }),
  })
  .meta({ id: 'ApiFieldAnswerFile' });

/** What a party answers for one field: text, true/false (CHECKBOX), a number (NUMBER) or a file (ATTACHMENT). */
export const ZFieldAnswerSchema = z.union([z.string().max(1_000), z.boolean(), z.number(), ZFieldAnswerFileSchema]);
export type TFieldAnswer = z.infer<typeof ZFieldAnswerSchema>;
export type TFieldAnswerFile = z.infer<typeof ZFieldAnswerFileSchema>;

export const ZSigningFieldSchema = z.object({
  id: z.number().int(),
  type: z.enum(ANNOTATION_TYPES),
  page: z.number().int().min(1),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  isRequired: z.boolean(),
  /** Prefilled text (the annotation's content), or the value entered once signed (an attachment's file name). */
  content: z.string(),
  /** What the field asks and a line of help, from the office ('' when it gave none). */
  label: z.string(),
  hint: z.string(),
  /** The choices of a DROPDOWN or RADIO field, else null. */
  options: z.array(z.string()).nullable(),
  /** Where the party downloads again the file it attached to this ATTACHMENT field once signed, else null. */
  fileUrl: z.string().nullable(),
});

export const ZSigningStateSchema = z.object({
  stage: z.enum(SIGNING_STAGES),
  language: z.enum(LANGUAGES),
  officeName: z.string(),
  /** The office's logo (a PNG SignDesk made, under /sign/brand/) and the style sheet of its accent; null: none set. */
  brand: z.object({
    logo: z.object({ url: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
    accentStyle: z.string().nullable(),
  }),
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
  /**
   * For pages shown inside an integrator's web app: where events may be posted, and what they
   * name (the API paths of the contract and the party: null until the party is identified, so
   * that a link whose code is not entered tells nothing of the office's contracts).
   */
  embedding: z.object({
    frameOrigins: z.array(z.string()),
    contract: z.string().nullable(),
    party: z.string().nullable(),
  }),
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
  fields: z.record(z.string().regex(/^\d+$/), ZFieldAnswerSchema),
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
      .record(z.string().regex(/^\d+$/), ZFieldAnswerSchema)
      .optional()
      .meta({
        description:
          "The party's field values by annotation id (the last segment of the annotation's self): text; true/false for a checkbox; a number (or its text) for NUMBER; one of the options for DROPDOWN and RADIO; for ATTACHMENT an object {file_name, content_type, data} with the bytes in base64 (at most 2 MiB, within the 1 MiB JSON body of this call)",
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
