import { z } from 'zod';
import { MAX_PARTIES_PER_CONTRACT } from '../constants';
import { ANNOTATION_TYPES } from './enums';
import { ZTimestampSchema } from './common';
import { REQUIRED_BOX_FIELDS, writableBoxFields } from './field-box';

/**
 * A field of a PDF template: an annotation for a role instead of a party. A contract made
 * from the template gives role 1's fields to the first party added, role 2's to the second.
 */
export const ZTemplateFieldSchema = z
  .object({
    self: z.string(),
    role: z.number().int().meta({
      description:
        '1 = the first party added to a contract made from the template (or the party naming role 1 by its name in role_names)',
    }),
    pdf_page: z.number().int().meta({ description: '1-based page number' }),
    pos_x: z.number(),
    pos_y: z.number(),
    width: z.number(),
    height: z.number(),
    type: z.enum(ANNOTATION_TYPES),
    content: z.string(),
    label: z.string().meta({ description: 'What the field asks, shown to the party' }),
    hint: z.string().meta({ description: 'A line of help shown to the party under the label' }),
    options: z.array(z.string()).nullable().meta({ description: 'The choices of a DROPDOWN or RADIO field' }),
    input_required: z.boolean(),
    render_when_signed: z.boolean(),
    created_time: ZTimestampSchema,
  })
  .meta({ id: 'ApiTemplateField' });

const writableFields = {
  role: z.number().int().min(1).max(MAX_PARTIES_PER_CONTRACT),
  ...writableBoxFields,
};

export const ZTemplateFieldCreateSchema = z
  .strictObject(writableFields)
  .partial()
  .required({ role: true, ...REQUIRED_BOX_FIELDS })
  .meta({ id: 'ApiTemplateFieldCreate' });
export const ZTemplateFieldUpdateSchema = z
  .strictObject(writableFields)
  .partial()
  .meta({ id: 'ApiTemplateFieldUpdate' });

export const TEMPLATE_FIELD_READ_ONLY_FIELDS = ['self', 'created_time'] as const;

export type TTemplateField = z.infer<typeof ZTemplateFieldSchema>;
export type TTemplateFieldCreate = z.infer<typeof ZTemplateFieldCreateSchema>;
export type TTemplateFieldUpdate = z.infer<typeof ZTemplateFieldUpdateSchema>;
