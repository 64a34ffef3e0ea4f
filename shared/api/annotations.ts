import { z } from 'zod';
import { ANNOTATION_TYPES } from './enums';
import { longText, ZTimestampSchema } from './common';

export const PARTY_PATH_PATTERN = /^\/api\/contracts\/([1-9][0-9]{0,15})\/parties\/([1-9][0-9]{0,15})$/;

/** Geometry is in PDF points (1/72 inch), origin at the page's top-left corner, y downwards. */
export const ZAnnotationSchema = z
  .object({
    self: z.string(),
    party_id: z.string().meta({ description: 'Path of a party of this contract' }),
    pdf_page: z.number().int().meta({ description: '1-based page number' }),
    pos_x: z.number(),
    pos_y: z.number(),
    width: z.number(),
    height: z.number(),
    type: z.enum(ANNOTATION_TYPES),
    content: z.string(),
    input_required: z.boolean(),
    render_when_signed: z.boolean(),
    created_by: z.string(),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiContractAnnotation' });

const point = (description: string) => z.number().min(0).max(100_000).meta({ description });

const writableAnnotationFields = {
  party_id: z
    .string()
    .regex(PARTY_PATH_PATTERN, 'must be a party path of the form /api/contracts/<contract_id>/parties/<party_id>'),
  pdf_page: z.number().int().min(1).max(100_000),
  pos_x: point('Points from the left edge of the page'),
  pos_y: point('Points from the top edge of the page'),
  width: z.number().positive().max(100_000).meta({ description: 'Points' }),
  height: z.number().positive().max(100_000).meta({ description: 'Points' }),
  type: z.enum(ANNOTATION_TYPES),
  content: longText(),
  input_required: z.boolean().meta({ description: 'Default true' }),
  render_when_signed: z.boolean().meta({ description: 'Default true' }),
};

export const ZAnnotationCreateSchema = z
  .strictObject(writableAnnotationFields)
  .partial()
  .required({ party_id: true, pdf_page: true, pos_x: true, pos_y: true, width: true, height: true, type: true })
  .meta({ id: 'ApiContractAnnotationCreate' });
export const ZAnnotationUpdateSchema = z
  .strictObject(writableAnnotationFields)
  .partial()
  .meta({ id: 'ApiContractAnnotationUpdate' });

export const ANNOTATION_READ_ONLY_FIELDS = ['self', 'created_by', 'created_time'] as const;

export type TAnnotation = z.infer<typeof ZAnnotationSchema>;
export type TAnnotationCreate = z.infer<typeof ZAnnotationCreateSchema>;
export type TAnnotationUpdate = z.infer<typeof ZAnnotationUpdateSchema>;
