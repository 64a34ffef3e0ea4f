import { z } from 'zod';
import {
  ANNOTATION_READ_ONLY_FIELDS,
  ZAnnotationCreateSchema,
  ZAnnotationSchema,
  ZAnnotationUpdateSchema,
} from '../../shared/api/annotations';
import { ZPageQuerySchema } from '../../shared/api/common';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { findContract } from '../services/contracts/find-draft';
import { requestOrigin } from '../services/contracts/log-activity';
import { createAnnotation, deleteAnnotation, updateAnnotation } from '../services/contracts/save-annotation';
import { presentAnnotation } from './contract-presenters';

const tag = 'Contract annotations';
const geometry =
  'Geometry is in PDF points (1/72 inch) with the origin at the top-left corner of the page and y downwards; pdf_page is 1-based. The box must lie on the page.';

export const annotationRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/annotations',
    operationId: 'listContractAnnotations',
    summary: 'List the annotations of a contract, newest first',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of annotations', schema: z.array(ZAnnotationSchema), isPaginated: true } },
    handler: ({ req, res, ctx, ids, query, actor }) => {
      const contract = findContract(ctx, ids.contract_id, actor);
      const request = readPageRequest(query, 'annotations:-id', 1);
      const page = ctx.repos.annotations.listPage(contract.id, request);
      const total = ctx.repos.annotations.countInContract(contract.id);
      sendPage(req, res, ctx.baseUrl(), request, page, total, (row) => presentAnnotation(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/annotations',
    operationId: 'createContractAnnotation',
    summary: 'Add an annotation (a field for a party) to a draft',
    description: geometry,
    tag,
    access: 'user',
    body: ZAnnotationCreateSchema,
    readOnlyFields: ANNOTATION_READ_ONLY_FIELDS,
    responses: { 201: { description: 'The annotation', schema: ZAnnotationSchema } },
    handler: ({ req, res, ctx, ids, body, actor }) => {
      sendJson(res, 201, presentAnnotation(ctx, createAnnotation(ctx, ids.contract_id, body, actor, requestOrigin(req))));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/annotations/:annotation_id',
    operationId: 'getContractAnnotation',
    summary: 'Get an annotation',
    tag,
    access: 'user',
    responses: { 200: { description: 'The annotation', schema: ZAnnotationSchema } },
    handler: ({ res, ctx, ids, actor }) => {
      findContract(ctx, ids.contract_id, actor);
      const annotation = ctx.repos.annotations.findInContract(ids.contract_id, ids.annotation_id);
      if (!annotation) throw notFound('annotation');
      sendJson(res, 200, presentAnnotation(ctx, annotation));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contracts/:contract_id/annotations/:annotation_id',
    operationId: 'updateContractAnnotation',
    summary: 'Change an annotation of a draft; only the fields sent change',
    description: geometry,
    tag,
    access: 'user',
    body: ZAnnotationUpdateSchema,
    readOnlyFields: ANNOTATION_READ_ONLY_FIELDS,
    responses: { 200: { description: 'The annotation', schema: ZAnnotationSchema } },
    handler: ({ req, res, ctx, ids, body, actor }) => {
      const annotation = updateAnnotation(ctx, ids.contract_id, ids.annotation_id, body, actor, requestOrigin(req));
      sendJson(res, 200, presentAnnotation(ctx, annotation));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contracts/:contract_id/annotations/:annotation_id',
    operationId: 'deleteContractAnnotation',
    summary: 'Remove an annotation from a draft',
    tag,
    access: 'user',
    responses: { 204: { description: 'Removed' } },
    handler: ({ req, res, ctx, ids, actor }) => {
      deleteAnnotation(ctx, ids.contract_id, ids.annotation_id, actor, requestOrigin(req));
      res.status(204).end();
    },
  }),
];
