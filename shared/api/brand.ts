import { z } from 'zod';
import { accentProblem, DEFAULT_ACCENT } from '../brand';
import { MAX_STRING_LENGTH } from '../constants';
import { LANGUAGES } from './enums';
import { ZMessagingTestResultSchema } from './messaging-settings';

/** A logo as stored: at most this many bytes of PNG or SVG are taken (checked before anything is decoded). */
export const MAX_LOGO_BYTES = 512 * 1024;
/** …and an image at most this many pixels wide or high (read from its header, before decoding). */
export const MAX_LOGO_SIDE = 4096;
export const LOGO_TYPES = ['image/png', 'image/svg+xml'] as const;

export const ZBrandSchema = z
  .object({
    office_name: z.string().meta({ description: "The office's name, as parties read it", example: 'Office AB' }),
    accent_color: z
      .string()
      .nullable()
      .meta({ description: "The office's accent (#rrggbb); null: SignDesk's own", example: '#0b6e4f' }),
    effective_accent_color: z.string().meta({ description: 'The accent in use', example: DEFAULT_ACCENT }),
    logo: z
      .object({
        url: z.string().meta({ description: 'The logo as parties get it: a PNG made by SignDesk, never the upload' }),
        width: z.number().int(),
        height: z.number().int(),
        sha256: z.string().meta({ description: 'SHA-256 of the PNG served' }),
        uploaded_type: z.enum(LOGO_TYPES).meta({ description: 'What was uploaded (an SVG is drawn into a PNG)' }),
      })
      .nullable(),
  })
  .meta({ id: 'Brand' });

export const ZBrandUpdateSchema = z
  .strictObject({
    office_name: z.string().trim().min(1).max(MAX_STRING_LENGTH).optional(),
    accent_color: z
      .string()
      .superRefine((value, context) => {
        const problem = accentProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .transform((value) => value.trim().toLowerCase())
      .nullable()
      .optional()
      .meta({
        description:
          'A colour #rrggbb that white text on it, and it as text on white, show with a contrast of at least 4.5:1 (WCAG AA); null: back to SignDesk’s own',
      }),
  })
  .meta({ id: 'BrandUpdate' });

/** The mails whose words the office may write itself. */
export const MAIL_WORD_KINDS = ['invitation', 'reminder', 'signed'] as const;
export type MailWordKind = (typeof MAIL_WORD_KINDS)[number];
/** What the office's words may name; a value is put in as plain text (never HTML, never a header). */
export const MAIL_PLACEHOLDERS = ['party_name', 'contract_name', 'link', 'expiry', 'office_name'] as const;
export const MAX_MAIL_SUBJECT = 200;
export const MAX_MAIL_BODY = 5_000;

/** The `{name}` placeholders of a text that are not MAIL_PLACEHOLDERS. */
export function unknownPlaceholders(text: string): string[] {
  const names = [...text.matchAll(/\{([^{}\s]*)\}/g)].map((match) => match[1] ?? '');
  return [...new Set(names.filter((name) => !(MAIL_PLACEHOLDERS as readonly string[]).includes(name)))];
}

const placeholdersKnown = (value: string, context: z.RefinementCtx) => {
  const unknown = unknownPlaceholders(value);
  if (unknown.length > 0)
    context.addIssue({
      code: 'custom',
      message: `unknown placeholder ${unknown.map((name) => `{${name}}`).join(', ')}; use ${MAIL_PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`,
    });
};

export const ZMailWordsSchema = z
  .strictObject({
    subject: z
      .string()
      .trim()
      .min(1)
      .max(MAX_MAIL_SUBJECT)
      .refine((value) => !/[\r\n]/.test(value), 'must be one line')
      .superRefine(placeholdersKnown),
    body: z.string().trim().min(1).max(MAX_MAIL_BODY).superRefine(placeholdersKnown),
  })
  .meta({
    id: 'MailWords',
    description:
      'Subject and body (plain text; a blank line starts a paragraph) with placeholders {party_name}, {contract_name}, {link}, {expiry}, {office_name}. The button to the document, the greeting’s layout and the footer stay.',
  });

const perLanguage = () => z.partialRecord(z.enum(LANGUAGES), ZMailWordsSchema);
const perLanguageUpdate = () => z.partialRecord(z.enum(LANGUAGES), ZMailWordsSchema.nullable());

export const ZMailWordsSettingsSchema = z
  .object({
    invitation: perLanguage(),
    reminder: perLanguage(),
    signed: perLanguage(),
  })
  .meta({
    id: 'MailWordsSettings',
    description: 'The office’s own words per mail and language; a language without its own uses SignDesk’s words.',
  });

export const ZMailWordsUpdateSchema = z
  .strictObject({
    invitation: perLanguageUpdate().optional(),
    reminder: perLanguageUpdate().optional(),
    signed: perLanguageUpdate().optional(),
  })
  .meta({
    id: 'MailWordsUpdate',
    description: 'Only the mails and languages sent change; null removes a language’s own words.',
  });

export const ZMailWordsPreviewSchema = z
  .strictObject({
    kind: z.enum(MAIL_WORD_KINDS),
    language: z.enum(LANGUAGES),
    words: ZMailWordsSchema.optional().meta({
      description: 'The words to show (the form as it is, saved or not); without: the saved ones, else SignDesk’s',
    }),
  })
  .meta({ id: 'MailWordsPreview' });

export const ZMailWordsTestSchema = ZMailWordsPreviewSchema.extend({
  to: z.email().max(MAX_STRING_LENGTH),
}).meta({ id: 'MailWordsTest' });

export const ZMailPreviewSchema = z
  .object({
    subject: z.string(),
    html: z.string().meta({ description: 'The mail’s HTML part, with example values in the placeholders' }),
    text: z.string().meta({ description: 'The plain-text part' }),
    is_own: z.boolean().meta({ description: 'The office’s own words (else SignDesk’s)' }),
  })
  .meta({ id: 'MailPreview' });

export const ZMailWordsTestResultSchema = ZMessagingTestResultSchema.meta({ id: 'MailWordsTestResult' });

export type TBrand = z.infer<typeof ZBrandSchema>;
export type TBrandUpdate = z.infer<typeof ZBrandUpdateSchema>;
export type TMailWords = z.infer<typeof ZMailWordsSchema>;
export type TMailWordsSettings = z.infer<typeof ZMailWordsSettingsSchema>;
export type TMailWordsUpdate = z.infer<typeof ZMailWordsUpdateSchema>;
export type TMailPreview = z.infer<typeof ZMailPreviewSchema>;
