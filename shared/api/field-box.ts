import { z } from 'zod';
import { ANNOTATION_TYPES } from './enums';
import { longText } from './common';

/** A field's options (DROPDOWN, RADIO): what the party picks from. */
export const MAX_FIELD_OPTIONS = 50;
export const MAX_OPTION_LENGTH = 100;
export const MAX_LABEL_LENGTH = 100;
export const MAX_HINT_LENGTH = 200;

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
  label: z.string().max(MAX_LABEL_LENGTH).meta({
    description: "What the field asks, shown to the party beside it (e.g. Company number); default ''",
    example: 'Company number',
  }),
  hint: z.string().max(MAX_HINT_LENGTH).meta({
    description:
      "A line of help shown to the party under the label (e.g. 10 digits, as on the registration); default ''",
    example: '10 digits, as on the registration',
  }),
  options: z
    .array(z.string().trim().min(1).max(MAX_OPTION_LENGTH))
    .min(1)
    .max(MAX_FIELD_OPTIONS)
    .nullable()
    .meta({
      description:
        'The choices of a DROPDOWN or RADIO field, 1 to 50 different texts of at most 100 characters, in the order shown: required for those types, null or absent for every other type',
      example: ['Monthly', 'Yearly'],
    }),
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
