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
  "A tag is `{{type:n}}` or `{{type:n;option=value;…}}`: `type` is an annotation type (`signature`, `initials`, `name`, `date`, `text`, `checkbox`, …; any case, spaces inside the braces allowed), `n` the party: 1 is the first party added to the contract, 2 the second, and so on (on a template, the role). Options: `w=` and `h=` (the field's width and height in points, 4-1000), `label=` (up to 100 characters), `hint=` (up to 200), `required=false`, `options=A|B|C` (for a type that offers choices). Examples: `{{signature:1}}`, `{{signature:1;h=40}}`, `{{text:2;label=Company number;w=150}}`, `{{checkbox:2;required=false}}`.",
  '',
  "The field is placed from the tag's glyphs in the PDF's own fonts: it starts at the tag's left ink edge, its bottom is the tag's (the font's descent below the baseline), and it is as wide and as high as the tag, so it never covers the text below or after it; a signature (initials) grows upwards into the blank space above the tag, to 36 (24) points, a point short of any text above. A name or text (date) field grows to the right into the blank space after its tag, to 120 (80) points wide, two points short of the next word on the line. `w` sets the width to the right, `h` the height upwards from the tag's bottom (a field higher than the blank space reaches into the text above: leave room there). A checkbox is a square as high as the tag at its start. Fields are required unless `required=false`, with no default content; change them afterwards like any annotation.",
  '',
  "The tag's own box is painted white on the signing page's images and in the signed PDF, under its field, so no party sees the tag (even when the field was moved or is not rendered). A tag whose field was deleted stays visible.",
  '',
  "A tag split over several text runs (a font change in the middle of it) is found; a tag broken over two lines is not. All or nothing: a tag with an unknown type (`{{signatur:1}}`), a bad option, no party number, broken over two lines, or naming a party the contract does not have is a 400 whose `validation_errors` name each such tag with its page and line (counted from the top, lines side by side in a table row are one), and nothing is made. `{{…}}` that does not start with a word and `:` or `;` is left alone as the document's own text. Tags already made into fields are skipped, so calling this again after adding parties makes only the rest. 409 once the contract is sent.",
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
    handler: async ({ req, res, ctx, ids, query, actor }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const request = readPageRequest(query, 'annotations:-id', 1);
      const page = await ctx.repos.annotations.listPage(contract.id, request);
      const total = await ctx.repos.annotations.countInContract(contract.id);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, (row) => presentAnnotation(ctx, row));
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
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        201,
        presentAnnotation(ctx, await act(createAnnotation, ids.contract_id, body, actor, requestOrigin(req))),
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
    handler: async ({ req, res, ctx, ids, actor, act }) => {
      const made = await act(createAnnotationsFromTags, ids.contract_id, actor, requestOrigin(req));
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
    handler: async ({ res, ctx, ids, actor }) => {
      await findContract(ctx, ids.contract_id, actor);
      const annotation = await ctx.repos.annotations.findInContract(ids.contract_id, ids.annotation_id);
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
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      const annotation = await act(
        updateAnnotation,
        ids.contract_id,
        ids.annotation_id,
        body,
        actor,
        requestOrigin(req),
      );
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
    handler: async ({ req, res, ids, actor, act }) => {
      await act(deleteAnnotation, ids.contract_id, ids.annotation_id, actor, requestOrigin(req));
      res.status(204).end();
    },
  }),
];
