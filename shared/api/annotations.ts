import { z } from 'zod';
import { ANNOTATION_TYPES } from './enums';
import { pathString, ZTimestampSchema } from './common';
import { REQUIRED_BOX_FIELDS, writableBoxFields } from './field-box';

export const PARTY_PATH_PATTERN = /^\/api\/contracts\/([1-9][0-9]{0,15})\/parties\/([1-9][0-9]{0,15})$/;

/** The file a party attached to an ATTACHMENT field, as the annotation's value. */
export const ZFieldFileSchema = z
  .object({
    file_name: z.string().meta({ description: 'The name the party gave the file', example: 'passport.pdf' }),
    content_type: z.string().meta({ example: 'application/pdf' }),
    size: z.number().int().meta({ description: 'Bytes', example: 48213 }),
    sha256: z.string().meta({
      description: 'SHA-256 of the bytes, hex: the same as on the audit page of the signed PDF',
      example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    }),
    download_uri: z.string().meta({
      description: 'Authenticated API URL of the bytes',
      example: 'https://sign.example.com/api/contracts/1/annotations/3/file',
    }),
  })
  .meta({ id: 'ApiContractAnnotationFile' });

/** Geometry is in PDF points (1/72 inch), origin at the page's top-left corner, y downwards. */
export const ZAnnotationSchema = z
  .object({
    self: z.string().meta({ description: "The annotation's path", example: '/api/contracts/1/annotations/1' }),
    party_id: z.string().meta({ description: 'Path of the party who fills it', example: '/api/contracts/1/parties/1' }),
    pdf_page: z.number().int().meta({ description: '1-based page number', example: 1 }),
    pos_x: z.number().meta({ description: 'Points from the left edge of the page', example: 72 }),
    pos_y: z.number().meta({ description: 'Points from the top edge of the page', example: 650 }),
    width: z.number().meta({ description: 'Points', example: 200 }),
    height: z.number().meta({ description: 'Points', example: 50 }),
    type: z.enum(ANNOTATION_TYPES),
    content: z.string().meta({ description: 'Prefilled text (NAME, TEXT) or a label', example: '' }),
    label: z.string().meta({ description: 'What the field asks, shown to the party', example: 'Company number' }),
    hint: z.string().meta({ description: 'A line of help shown to the party under the label', example: '' }),
    options: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The choices of a DROPDOWN or RADIO field; null for other types', example: null }),
    input_required: z.boolean().meta({ description: 'The party must fill it to sign', example: true }),
    render_when_signed: z.boolean().meta({ description: 'Drawn into the signed PDF', example: true }),
    value: z.union([z.string(), z.boolean(), z.number(), ZFieldFileSchema]).nullable().meta({
      description:
        'Read-only: what the party filled in, null until the party has signed. Text for NAME, DATE and TEXT; true or false for CHECKBOX; for SIGNATURE and INITIALS the name the party signed with; a number for NUMBER; the address for EMAIL; the chosen option for DROPDOWN and RADIO (empty text when an optional one was left); for ATTACHMENT the uploaded file (file_name, content_type, size, sha256, download_uri), or null when an optional one was left',
      example: null,
    }),
    created_by: z.string().meta({ example: '/api/users/1' }),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiContractAnnotation' });

const writableAnnotationFields = {
  party_id: pathString('/api/contracts/<contract_id>/parties/<party_id>')
    .regex(PARTY_PATH_PATTERN, 'must be a party path of the form /api/contracts/<contract_id>/parties/<party_id>')
    .meta({
      description: 'The party who fills the field: its self, /api/contracts/<contract_id>/parties/<party_id>',
      example: '/api/contracts/1/parties/1',
    }),
  ...writableBoxFields,
};

export const ZAnnotationCreateSchema = z
  .strictObject(writableAnnotationFields)
  .partial()
  .required({ party_id: true, ...REQUIRED_BOX_FIELDS })
  .meta({ id: 'ApiContractAnnotationCreate' });
export const ZAnnotationUpdateSchema = z
  .strictObject(writableAnnotationFields)
  .partial()
  .meta({ id: 'ApiContractAnnotationUpdate' });

export const ANNOTATION_READ_ONLY_FIELDS = ['self', 'value', 'created_by', 'created_time'] as const;

export type TAnnotation = z.infer<typeof ZAnnotationSchema>;
export type TAnnotationCreate = z.infer<typeof ZAnnotationCreateSchema>;
export type TAnnotationUpdate = z.infer<typeof ZAnnotationUpdateSchema>;
