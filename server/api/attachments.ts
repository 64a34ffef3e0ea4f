import { z } from 'zod';
import { ZAttachmentSchema, ZAttachmentUploadHeadersSchema } from '../../shared/api/attachments';
import { ZPageQuerySchema } from '../../shared/api/common';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { AppError, notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { fileResponseHeaders, readMediaType, readUploadFilename } from '../http/upload-headers';
import { findContract } from '../contracts/find-draft';
import { requestOrigin } from '../activity/log-activity';
import { createAttachment, deleteAttachment } from '../contracts/save-attachment';
import { presentAttachment } from './contract-presenters';

const tag = 'Contract attachments';

export const attachmentRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/attachments',
    operationId: 'listContractAttachments',
    summary: 'List the attachments of a contract, newest first',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of attachments', schema: z.array(ZAttachmentSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, ids, query, actor }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const request = readPageRequest(query, 'attachments:-id', 1);
      const page = await ctx.repos.attachments.listPage(contract.id, request);
      const total = await ctx.repos.attachments.countInContract(contract.id);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, (row) => presentAttachment(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/attachments',
    operationId: 'createContractAttachment',
    summary: 'Attach a file to a draft',
    description:
      'The body is the file itself (at most 2 MiB) with its own `Content-Type`, and `Content-Disposition` carries its name (`filename` or RFC 6266 `filename*`). JSON and form bodies are API bodies, not files: send such a file as text/plain or application/octet-stream.',
    tag,
    access: 'user',
    rawBody: {
      contentTypes: ['*/*'],
      maxBytes: MAX_UPLOAD_BYTES,
      description: 'The file, at most 2 MiB',
      noun: 'attachment',
    },
    requestHeaders: ZAttachmentUploadHeadersSchema,
    example: {
      headers: { 'Content-Disposition': 'attachment; filename="terms.pdf"' },
      file: { name: 'terms.pdf', contentType: 'application/pdf' },
    },
    responses: { 201: { description: 'The attachment', schema: ZAttachmentSchema } },
    handler: async ({ req, res, ctx, ids, raw, actor, act }) => {
      if (!raw) {
        throw new AppError(
          'unsupported-media-type',
          'An attachment is sent as its own bytes; application/json and form bodies are not files here. Send the file as text/plain or application/octet-stream.',
        );
      }
      const upload = { name: readUploadFilename(req), contentType: readMediaType(req), bytes: raw };
      sendJson(
        res,
        201,
        presentAttachment(ctx, await act(createAttachment, ids.contract_id, upload, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/attachments/:attachment_id',
    operationId: 'getContractAttachment',
    summary: 'Get an attachment',
    tag,
    access: 'user',
    responses: { 200: { description: 'The attachment', schema: ZAttachmentSchema } },
    handler: async ({ res, ctx, ids, actor }) => {
      await findContract(ctx, ids.contract_id, actor);
      const attachment = await ctx.repos.attachments.findInContract(ids.contract_id, ids.attachment_id);
      if (!attachment) throw notFound('attachment');
      sendJson(res, 200, presentAttachment(ctx, attachment));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/attachments/:attachment_id/preview',
    operationId: 'getContractAttachmentFile',
    summary: 'The attached file itself (preview_uri)',
    tag,
    access: 'user',
    example: { output: 'terms.pdf' },
    responses: {
      200: {
        description: 'The file, with the content type it was uploaded with',
        contentType: 'application/octet-stream',
      },
    },
    handler: async ({ res, ctx, ids, actor }) => {
      await findContract(ctx, ids.contract_id, actor);
      const attachment = await ctx.repos.attachments.findInContract(ids.contract_id, ids.attachment_id);
      const file = attachment && (await ctx.repos.files.getFile(attachment.fileId));
      if (!attachment || !file) throw notFound('attachment');
      for (const [name, value] of Object.entries(fileResponseHeaders(attachment.contentType, attachment.name)))
        res.setHeader(name, value);
      res.status(200).end(file.data);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contracts/:contract_id/attachments/:attachment_id',
    operationId: 'deleteContractAttachment',
    summary: 'Remove an attachment from a draft',
    tag,
    access: 'user',
    responses: { 204: { description: 'Removed' } },
    handler: async ({ req, res, ids, actor, act }) => {
      await act(deleteAttachment, ids.contract_id, ids.attachment_id, actor, requestOrigin(req));
      res.status(204).end();
    },
  }),
];
