import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  TEMPLATE_READ_ONLY_FIELDS,
  ZTemplateCreateSchema,
  ZTemplateSchema,
  ZTemplateUpdateSchema,
  type TTemplate,
} from '../../shared/api/templates';
import type { AppContext } from '../context';
import type { TemplateRow } from '../db/repos/templates';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { findVisibleTemplate } from '../services/templates/find-template';
import { createTemplate, deleteTemplate, updateTemplate } from '../services/templates/save-template';

export function presentTemplate(ctx: AppContext, row: TemplateRow): TTemplate {
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
  };
}

const tag = 'Contract templates';

export const templateRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contract_templates',
    operationId: 'listContractTemplates',
    summary: 'List contract templates, newest first',
    description: 'An ordinary user (CUSTOMER_USER) sees the published templates and their own; an administrator sees every template.',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of templates', schema: z.array(ZTemplateSchema), isPaginated: true } },
    handler: ({ req, res, ctx, query, actor }) => {
      const request = readPageRequest(query, 'templates:-id', 1);
      const visibleTo = actor.isAdmin ? undefined : actor.id;
      const page = ctx.repos.templates.listPage(request, visibleTo);
      sendPage(req, res, ctx.baseUrl(), request, page, ctx.repos.templates.count(visibleTo), (row) => presentTemplate(ctx, row));
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
    responses: { 201: { description: 'The template', schema: ZTemplateSchema } },
    handler: ({ res, ctx, body, actor }) => {
      sendJson(res, 201, presentTemplate(ctx, createTemplate(ctx, body, actor.id)));
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
    handler: ({ res, ctx, ids, actor }) => {
      sendJson(res, 200, presentTemplate(ctx, findVisibleTemplate(ctx, ids.template_id, actor)));
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
    responses: { 200: { description: 'The template', schema: ZTemplateSchema } },
    handler: ({ res, ctx, ids, body, actor }) => {
      sendJson(res, 200, presentTemplate(ctx, updateTemplate(ctx, ids.template_id, body, actor)));
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
    handler: ({ res, ctx, ids, actor }) => {
      deleteTemplate(ctx, ids.template_id, actor);
      res.status(204).end();
    },
  }),
];
