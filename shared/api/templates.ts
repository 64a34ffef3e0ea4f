import { z } from 'zod';
import { FOOTER_TYPES } from './enums';
import { longText, shortText, ZTimestampSchema } from './common';
import { MAX_PARTIES_PER_CONTRACT } from '../constants';

/** A role's name is compared without case and surrounding spaces ("Tenant" = " tenant "). */
export const roleNameKey = (name: string) => name.trim().toLocaleLowerCase('en');

const ZRoleNamesSchema = z
  .array(z.string().max(100))
  .max(MAX_PARTIES_PER_CONTRACT)
  .transform((names) => names.map((name) => name.trim()))
  .refine((names) => {
    const named = names.filter((name) => name !== '').map(roleNameKey);
    return new Set(named).size === named.length;
  }, 'two roles must not have the same name')
  .meta({
    description:
      'The names of a PDF template\'s roles: the first names role 1, the second role 2 ("" leaves a role unnamed, shown as Party n). A party added to a contract made from the template may name its role (`role`).',
    example: ['Landlord', 'Tenant'],
  });

export const ZTemplateSchema = z
  .object({
    self: z.string().meta({ description: "The template's path", example: '/api/contract_templates/1' }),
    name: z.string().meta({ example: 'Lease agreement' }),
    is_published: z.boolean().meta({ description: 'Ordinary users may make contracts from it' }),
    header: z.string().meta({ description: 'Light Markdown above the content of every page', example: '' }),
    content: z.string().meta({
      description: 'Light Markdown: headings, paragraphs, **bold**, *italic*, lists',
      example: '# Lease agreement',
    }),
    footer: z.string().meta({ example: 'Office AB, Storgatan 1, Stockholm' }),
    footer_type: z.enum(FOOTER_TYPES).meta({ description: 'SIMPLE: the footer and page numbers; NONE: no footer' }),
    created_time: ZTimestampSchema,
    updated_time: ZTimestampSchema,
    created_by: z.string().meta({ example: '/api/users/1' }),
    kind: z.enum(['TEXT', 'PDF']).meta({
      description:
        'Read-only. TEXT: the PDF is rendered from header, content and footer. PDF: an uploaded PDF (PUT …/pdf) with fields for roles (…/fields).',
    }),
    roles: z.number().int().meta({
      description:
        'Read-only. How many parties the fields of a PDF template are for (the highest role); 0 for a text template.',
    }),
    role_names: z.array(z.string()).meta({
      description:
        'The names of the roles: the first names role 1 ("" or missing: unnamed, shown as Party n). Parties added to a contract made from the template may name their role.',
      example: ['Landlord', 'Tenant'],
    }),
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
    role_names: ZRoleNamesSchema.optional(),
  })
  .meta({ id: 'ApiContractTemplateCreate' });

export const ZTemplateUpdateSchema = ZTemplateCreateSchema.partial().meta({ id: 'ApiContractTemplateUpdate' });

export const TEMPLATE_READ_ONLY_FIELDS = [
  'self',
  'created_time',
  'updated_time',
  'created_by',
  'kind',
  'roles',
] as const;

export type TTemplate = z.infer<typeof ZTemplateSchema>;
export type TTemplateCreate = z.infer<typeof ZTemplateCreateSchema>;
export type TTemplateUpdate = z.infer<typeof ZTemplateUpdateSchema>;
