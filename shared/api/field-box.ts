import { z } from 'zod';
import { ANNOTATION_TYPES } from './enums';
import { longText } from './common';

const point = (description: string) => z.number().min(0).max(100_000).meta({ description });

/**
 * Where a field stands and what it asks, as a contract's annotation and a template's field
 * both write it. Geometry is in PDF points, origin at the page's top-left corner, y downwards.
 */
export const writableBoxFields = {
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

/** What a new field must state; the rest has defaults. */
export const REQUIRED_BOX_FIELDS = {
  pdf_page: true,
  pos_x: true,
  pos_y: true,
  width: true,
  height: true,
  type: true,
} as const;

export type TBoxFields = z.infer<z.ZodObject<typeof writableBoxFields>>;
