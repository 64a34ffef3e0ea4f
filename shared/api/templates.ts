import { z } from 'zod';
import { FOOTER_TYPES } from './enums';
import { longText, shortText, ZTimestampSchema } from './common';

export const ZTemplateSchema = z
  .object({
    self: z.string(),
    name: z.string(),
    is_published: z.boolean(),
    header: z.string(),
    content: z.string(),
    footer: z.string(),
    footer_type: z.enum(FOOTER_TYPES),
    created_time: ZTimestampSchema,
    updated_time: ZTimestampSchema,
    created_by: z.string(),
    kind: z.enum(['TEXT', 'PDF']).meta({
      description: 'Read-only. TEXT: the PDF is rendered from header, content and footer. PDF: an uploaded PDF (PUT …/pdf) with fields for roles (…/fields).',
    }),
    roles: z.number().int().meta({ description: 'Read-only. How many parties the fields of a PDF template are for (the highest role); 0 for a text template.' }),
  })
  .meta({ id: 'ApiContractTemplate' });

export const ZTemplateCreateSchema = z
  .strictObject({
    name: shortText().min(1),
    is_published: z.boolean().optional(),
    header: longText().optional(),
    content: longText().optional(),
    footer: longText().optional(),
    footer_type: z.enum(FOOTER_TYPES).optional(),
  })
  .meta({ id: 'ApiContractTemplateCreate' });

export const ZTemplateUpdateSchema = ZTemplateCreateSchema.partial().meta({ id: 'ApiContractTemplateUpdate' });

export const TEMPLATE_READ_ONLY_FIELDS = ['self', 'created_time', 'updated_time', 'created_by', 'kind', 'roles'] as const;

export type TTemplate = z.infer<typeof ZTemplateSchema>;
export type TTemplateCreate = z.infer<typeof ZTemplateCreateSchema>;
export type TTemplateUpdate = z.infer<typeof ZTemplateUpdateSchema>;
