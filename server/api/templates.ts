import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  TEMPLATE_READ_ONLY_FIELDS,
  ZTemplateCreateSchema,
  ZTemplateSchema,
  ZTemplateUpdateSchema,
  type TTemplate,
} from '../../shared/api/templates';
import type { RouteContext } from '../http/route';
import type { TemplateRow } from '../db/repos/templates';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { findVisibleTemplate } from '../contracts/find-template';
import { createTemplate, deleteTemplate, updateTemplate } from '../templates/save-template';
import { setTemplatePdf } from '../templates/set-template-pdf';
import { templateListScope } from '../policies/templates';

export async function presentTemplate(ctx: RouteContext, row: TemplateRow): Promise<TTemplate> {
  return {
    self: `/api/contract_templates/${row.id}`,
    name: row.name,
    is_published: row.isPublished,
    header: row.header,
    content: row.content,
    footer: row.footer,
    footer_type: row.footerType as TTemplate['footer_type'],
    created_time: ctx.timestamp(row.createdAt),
    updated_time: ctx.timestamp(row.updatedAt),
    created_by: `/api/users/${row.createdBy}`,
    kind: row.pdfFileId === null ? 'TEXT' : 'PDF',
    roles: row.pdfFileId === null ? 0 : await ctx.repos.templateFields.roleCount(row.id),
    role_names: JSON.parse(row.roleNames) as string[],
  };
}

const tag = 'Contract templates';

export const templateRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contract_templates',
    operationId: 'listContractTemplates',
    summary: 'List contract templates, newest first',
    description:
      'An ordinary user (CUSTOMER_USER) sees the published templates and their own; an administrator sees every template.',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of templates', schema: z.array(ZTemplateSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, query, actor }) => {
      const request = readPageRequest(query, 'templates:-id', 1);
      const visibleTo = templateListScope(actor);
      const page = await ctx.repos.templates.listPage(request, visibleTo);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.templates.count(visibleTo), async (row) =>
        presentTemplate(ctx, row),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contract_templates',
    operationId: 'createContractTemplate',
    summary: 'Create a contract template',
    tag,
    access: 'user',
    body: ZTemplateCreateSchema,
    readOnlyFields: TEMPLATE_READ_ONLY_FIELDS,
    example: {
      body: {
        name: 'Lease agreement',
        content: '# Lease agreement\n\nThe landlord lets the premises at **Storgatan 1** to the tenant.',
        footer: 'Office AB, Storgatan 1, Stockholm',
        footer_type: 'SIMPLE',
        is_published: true,
      },
    },
    responses: { 201: { description: 'The template', schema: ZTemplateSchema } },
    handler: async ({ res, ctx, body, actor, act }) => {
      sendJson(res, 201, await presentTemplate(ctx, await act(createTemplate, body, actor.id)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contract_templates/:template_id',
    operationId: 'getContractTemplate',
    summary: 'Get a contract template',
    tag,
    access: 'user',
    responses: { 200: { description: 'The template', schema: ZTemplateSchema } },
    handler: async ({ res, ctx, ids, actor }) => {
      sendJson(res, 200, await presentTemplate(ctx, await findVisibleTemplate(ctx, ids.template_id, actor)));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contract_templates/:template_id',
    operationId: 'updateContractTemplate',
    summary: 'Change a contract template; only the fields sent change',
    tag,
    access: 'user',
    body: ZTemplateUpdateSchema,
    readOnlyFields: TEMPLATE_READ_ONLY_FIELDS,
    example: { body: { footer: 'Office AB, Storgatan 1, 111 22 Stockholm' } },
    responses: { 200: { description: 'The template', schema: ZTemplateSchema } },
    handler: async ({ res, ctx, ids, body, actor, act }) => {
      sendJson(res, 200, await presentTemplate(ctx, await act(updateTemplate, ids.template_id, body, actor)));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contract_templates/:template_id/pdf',
    operationId: 'setContractTemplatePdf',
    summary: 'Upload the PDF of a PDF template (or replace it)',
    description:
      "Makes the template a PDF template (`kind` PDF): a contract made from it gets this PDF as it is, with the template's fields (`/fields`) for its roles. The body is the PDF itself (at most 2 MiB, a whole unencrypted PDF). A new PDF that would leave a field off its page is refused (400) and changes nothing. Header, content and footer are kept but no longer used.",
    tag,
    access: 'user',
    rawBody: {
      contentTypes: ['application/pdf'],
      maxBytes: MAX_UPLOAD_BYTES,
      description: 'The template PDF, at most 2 MiB',
      noun: 'PDF',
      isForSandbox: true,
    },
    example: { file: { name: 'lease.pdf', contentType: 'application/pdf' } },
    responses: { 200: { description: 'The template', schema: ZTemplateSchema } },
    handler: async ({ res, ctx, ids, raw, actor, act }) => {
      sendJson(
        res,
        200,
        await presentTemplate(ctx, await act(setTemplatePdf, ids.template_id, raw ?? Buffer.alloc(0), actor)),
      );
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contract_templates/:template_id',
    operationId: 'deleteContractTemplate',
    summary: 'Delete a contract template (contracts made from it keep their PDF)',
    tag,
    access: 'user',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ res, ids, actor, act }) => {
      await act(deleteTemplate, ids.template_id, actor);
      res.status(204).end();
    },
  }),
];
