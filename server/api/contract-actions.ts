import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  ZActivityEntrySchema,
  ZContractSchema,
  ZContractSendSchema,
  ZTemplatePreviewQuerySchema,
} from '../../shared/api/contracts';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { fileResponseHeaders } from '../http/upload-headers';
import { renderContractText } from '../contracts/contract-fields';
import { findVisibleTemplate } from '../contracts/find-template';
import { findContract } from '../contracts/find-draft';
import { requestOrigin } from '../activity/log-activity';
import { sendContract } from '../signing/send-contract';
import { pageImagesOf } from '../signing/page-images';
import { activityPresenter } from '../activity/present-activity';
import { presentContract } from './contract-presenters';
import { setTimeout as delay } from 'node:timers/promises';

/** How long sending waits at most for the first page to be drawn. */
const FIRST_PAGE_WAIT_MS = 2_000;

const tag = 'Contracts';

export const contractActionRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/send',
    operationId: 'sendContract',
    summary: 'Send a draft to its parties; from then on it is read-only',
    tag,
    access: 'user',
    body: ZContractSendSchema,
    isBodyOptional: true,
    example: { body: { silent: false, auto_sign: true } },
    responses: { 200: { description: 'The contract, now sent', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      const contract = await act(sendContract, ids.contract_id, actor, body ?? {}, requestOrigin(req));
      // The parties' pages open on the first page: have it drawn before the first of them asks. An
      // integrator may show the signing page in its app the moment this answers, so the answer
      // waits for it, a while at most. Not drawn at upload: the fields made meanwhile (tags
      // covered) change the picture, and an office uploading many drafts would pay for each.
      await Promise.race([act(pageImagesOf).warm(contract), delay(FIRST_PAGE_WAIT_MS, undefined, { ref: false })]);
      sendJson(res, 200, await presentContract(ctx, contract));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/pdf',
    operationId: 'getContractPdf',
    summary: 'The contract PDF (pdf_preview_uri)',
    tag,
    access: 'user',
    example: { output: 'contract.pdf' },
    responses: { 200: { description: 'The PDF', contentType: 'application/pdf' } },
    handler: async ({ res, ctx, ids, actor }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const file = await ctx.repos.files.readFile(contract.originalFileId);
      if (!file) throw notFound('contract PDF');
      for (const [name, value] of Object.entries(
        fileResponseHeaders('application/pdf', `${contract.name || `contract-${contract.id}`}.pdf`),
      ))
        res.setHeader(name, value);
      res.status(200).end(file.data);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/activity_log',
    operationId: 'listContractActivity',
    summary: 'The activity log of a contract, newest first',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of entries', schema: z.array(ZActivityEntrySchema), isPaginated: true } },
    handler: async ({ req, res, ctx, ids, query, actor, act }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const request = readPageRequest(query, 'activity:-id', 1);
      const page = await ctx.repos.activity.listPage(contract.id, request);
      const total = await ctx.repos.activity.countInContract(contract.id);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, await act(activityPresenter, contract.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contract_templates/:template_id/pdf_preview',
    operationId: 'previewContractTemplate',
    summary: 'The PDF a contract made from this template would get',
    description: "A text template's PDF rendered from its text (in `language`); a PDF template's own PDF.",
    tag: 'Contract templates',
    access: 'user',
    query: ZTemplatePreviewQuerySchema,
    example: { query: { language: 'sv' }, output: 'preview.pdf' },
    responses: { 200: { description: 'The rendered PDF', contentType: 'application/pdf' } },
    handler: async ({ res, ctx, ids, query, actor }) => {
      const template = await findVisibleTemplate(ctx, ids.template_id, actor);
      // A PDF template's PDF is its own, as uploaded; a text template's is rendered.
      const uploaded =
        template.pdfFileId === null ? undefined : (await ctx.repos.files.readFile(template.pdfFileId))?.data;
      const bytes = uploaded ?? (await renderContractText({ ...template, language: query.language ?? 'en' })).bytes;
      for (const [name, value] of Object.entries(
        fileResponseHeaders('application/pdf', `${template.name || 'template'}.pdf`),
      ))
        res.setHeader(name, value);
      res.status(200).end(Buffer.from(bytes));
    },
  }),
];
