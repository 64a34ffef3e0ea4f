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
import { findContract } from '../contracts/find-draft';
import { requestOrigin } from '../activity/log-activity';
import { createAnnotationsFromTags } from '../contracts/annotations-from-tags';
import { createAnnotation, deleteAnnotation, updateAnnotation } from '../contracts/save-annotation';
import { presentAnnotation } from './contract-presenters';

const tag = 'Contract annotations';
const geometry =
  'Geometry is in PDF points (1/72 inch) with the origin at the top-left corner of the page and y downwards; pdf_page is 1-based. The box must lie on the page.';

/** What text tags are, for the route's documentation (the API docs are made from it). */
export const TEXT_TAGS_DESCRIPTION = [
  'Write a tag in the document where a field belongs, export it as PDF and upload it; this makes one annotation per tag, over the tag.',
  '',
  'A tag is `{{type:n}}`: `type` is one of `signature`, `initials`, `name`, `date`, `text`, `checkbox` (any case; spaces inside the braces are allowed), `n` the party: 1 is the first party added to the contract, 2 the second, and so on (on a template, the role). Examples: `{{signature:1}}`, `{{initials:2}}`, `{{date:1}}`, `{{name:2}}`, `{{text:1}}`, `{{checkbox:2}}`.',
  '',
  'The field covers the tag, from its left edge: a field is as wide as its tag; a signature is at least 80 × 36 points and initials 40 × 24, growing upwards from the bottom of the tag (leave the line above a signature tag blank); name, date and text fields are at least 16 points high; a checkbox is a square at the start of the tag. Fields are required, with no default content; change them afterwards like any annotation.',
  '',
  "In the signed PDF the tag's own box is painted white under its field, so the tag's text never shows (even when the field was moved or is not rendered). A tag whose field was deleted stays visible.",
  '',
  'A tag split over several text runs (a font change in the middle of it) is found. Tags already made into fields are skipped, so calling this again after adding parties makes only the rest. A tag naming a party the contract does not have is a 400 that names the tags, and nothing is made. 409 once the contract is sent.',
].join('\n');

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
    example: {
      body: {
        party_id: '/api/contracts/1/parties/1',
        pdf_page: 1,
        pos_x: 72,
        pos_y: 650,
        width: 200,
        height: 50,
        type: 'SIGNATURE',
      },
    },
    responses: { 201: { description: 'The annotation', schema: ZAnnotationSchema } },
    handler: ({ req, res, ctx, ids, body, actor }) => {
      sendJson(
        res,
        201,
        presentAnnotation(ctx, createAnnotation(ctx, ids.contract_id, body, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/annotations/from_tags',
    operationId: 'createContractAnnotationsFromTags',
    summary: 'Make annotations from the text tags in the PDF',
    description: TEXT_TAGS_DESCRIPTION,
    tag,
    access: 'user',
    responses: {
      201: {
        description: 'The annotations made (none when every tag already has its field)',
        schema: z.array(ZAnnotationSchema),
      },
    },
    handler: async ({ req, res, ctx, ids, actor }) => {
      const made = await createAnnotationsFromTags(ctx, ids.contract_id, actor, requestOrigin(req));
      sendJson(
        res,
        201,
        made.map((row) => presentAnnotation(ctx, row)),
      );
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
    example: { body: { pos_y: 600 } },
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
