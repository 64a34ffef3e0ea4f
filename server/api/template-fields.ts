import { fieldTextsOf } from './contract-presenters';
import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  TEMPLATE_FIELD_READ_ONLY_FIELDS,
  ZTemplateFieldCreateSchema,
  ZTemplateFieldSchema,
  ZTemplateFieldUpdateSchema,
  type TTemplateField,
} from '../../shared/api/template-fields';
import type { RouteContext } from '../http/route';
import type { TemplateFieldRow } from '../db/repos/template-fields';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import {
  createTemplateField,
  createTemplateFieldsFromTags,
  deleteTemplateField,
  findPdfTemplate,
  templateFieldPath,
  updateTemplateField,
} from '../templates/save-template-field';
import { TEXT_TAGS_DESCRIPTION } from './annotations';

export function presentTemplateField(ctx: RouteContext, row: TemplateFieldRow): TTemplateField {
  return {
    self: templateFieldPath(row),
    role: row.role,
    pdf_page: row.pdfPage,
    pos_x: row.posX,
    pos_y: row.posY,
    width: row.width,
    height: row.height,
    type: row.type as TTemplateField['type'],
    content: row.content,
    ...fieldTextsOf(row),
    input_required: row.inputRequired,
    render_when_signed: row.renderWhenSigned,
    created_time: ctx.timestamp(row.createdAt),
  };
}

const tag = 'Contract templates';
const about =
  'Fields of a PDF template, each for a role: role 1 is the first party added to a contract made from the template, role 2 the second, and so on, unless a party names its role when it is added (the template’s `role_names`: a party with `role: "Tenant"` takes the Tenant role’s fields). Geometry as for annotations: PDF points, origin at the top-left corner of the page, y downwards, pdf_page 1-based; the box must lie on the page. A text template has no fields (409).';

export const templateFieldRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contract_templates/:template_id/fields',
    operationId: 'listTemplateFields',
    summary: 'List the fields of a PDF template, newest first',
    description: about,
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of fields', schema: z.array(ZTemplateFieldSchema), isPaginated: true } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, ids, query, actor }) => {
      await findPdfTemplate(ctx, ids.template_id, { actor, use: 'see' });
      const request = readPageRequest(query, 'template-fields:-id', 1);
      const page = await ctx.repos.templateFields.listPage(ids.template_id, request);
      const total = await ctx.repos.templateFields.countInTemplate(ids.template_id);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, (row) => presentTemplateField(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contract_templates/:template_id/fields',
    operationId: 'createTemplateField',
    summary: 'Add a field for a role to a PDF template',
    description: about,
    tag,
    access: 'user',
    body: ZTemplateFieldCreateSchema,
    readOnlyFields: TEMPLATE_FIELD_READ_ONLY_FIELDS,
    example: { body: { role: 1, pdf_page: 1, pos_x: 72, pos_y: 700, width: 160, height: 40, type: 'SIGNATURE' } },
    responses: { 201: { description: 'The field', schema: ZTemplateFieldSchema } },
    handler: async ({ res, ctx, ids, body, actor, act }) => {
      sendJson(res, 201, presentTemplateField(ctx, await act(createTemplateField, ids.template_id, body, actor)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contract_templates/:template_id/fields/from_tags',
    operationId: 'createTemplateFieldsFromTags',
    summary: 'Make fields from the text tags in the template’s PDF',
    description: `${TEXT_TAGS_DESCRIPTION}\n\nOn a template the number of a tag is the role (1 to 50): every tag makes its field, whatever roles exist.`,
    tag,
    access: 'user',
    responses: { 201: { description: 'The fields made', schema: z.array(ZTemplateFieldSchema) } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, actor, act }) => {
      const made = await act(createTemplateFieldsFromTags, ids.template_id, actor);
      sendJson(
        res,
        201,
        made.map((row) => presentTemplateField(ctx, row)),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contract_templates/:template_id/fields/:field_id',
    operationId: 'getTemplateField',
    summary: 'Get a field of a PDF template',
    tag,
    access: 'user',
    responses: { 200: { description: 'The field', schema: ZTemplateFieldSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, actor }) => {
      await findPdfTemplate(ctx, ids.template_id, { actor, use: 'see' });
      const row = await ctx.repos.templateFields.findInTemplate(ids.template_id, ids.field_id);
      if (!row) throw notFound('template field');
      sendJson(res, 200, presentTemplateField(ctx, row));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contract_templates/:template_id/fields/:field_id',
    operationId: 'updateTemplateField',
    summary: 'Change a field of a PDF template; only the fields sent change',
    description: about,
    tag,
    access: 'user',
    body: ZTemplateFieldUpdateSchema,
    readOnlyFields: TEMPLATE_FIELD_READ_ONLY_FIELDS,
    example: { body: { pos_y: 690, input_required: false } },
    responses: { 200: { description: 'The field', schema: ZTemplateFieldSchema } },
    handler: async ({ res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        200,
        presentTemplateField(ctx, await act(updateTemplateField, ids.template_id, ids.field_id, body, actor)),
      );
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contract_templates/:template_id/fields/:field_id',
    operationId: 'deleteTemplateField',
    summary: 'Remove a field from a PDF template',
    tag,
    access: 'user',
    responses: { 204: { description: 'Removed' } },
    handler: async ({ res, ids, actor, act }) => {
      await act(deleteTemplateField, ids.template_id, ids.field_id, actor);
      res.status(204).end();
    },
  }),
];
