import { z } from 'zod';
import { ZBulkPreviewSchema, ZBulkSendSchema } from '../../shared/api/bulk-sends';
import { ZPageQuerySchema } from '../../shared/api/common';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { createBulkSend, findBulkSend, presentBulkSend, previewBulkSend } from '../bulk/bulk-send';
import { bulkSendListScope } from '../policies/bulk-sends';

const tag = 'Bulk sends';
const CSV_TYPES = ['text/csv', 'text/plain', 'application/csv', 'application/vnd.ms-excel'];
const csvBody = {
  contentTypes: CSV_TYPES,
  maxBytes: MAX_UPLOAD_BYTES,
  description: 'The CSV file, at most 2 MiB',
  noun: 'CSV file',
};
const CSV_FORMAT = [
  'The body is a CSV file as a spreadsheet saves it: UTF-8 with or without a byte-order mark, separated by commas or semicolons (Excel in Sweden), quoted as CSV quotes.',
  '',
  "The first row names the columns: for each role n of the template `partyn_name` (required), `partyn_email` and `partyn_phone` (one of them per party); and optionally `contract_name` (default: the template's name and the first party's name). Case, spaces, hyphens and underscores do not matter (`Party 1 e-mail` works), and Swedish names work too (`part1_namn`, `part1_epost`, `part1_telefon`, `avtalsnamn`). With a one-role template `name`, `email` and `phone` do.",
  '',
  'A party with an e-mail address is invited by e-mail, one with only a mobile number by SMS. At most 1,000 rows.',
].join('\n');

export const bulkSendRoutes: AnyRoute[] = [
  defineRoute({
    method: 'post',
    path: '/api/contract_templates/:template_id/bulk_sends/preview',
    operationId: 'previewBulkSend',
    summary: 'Read a bulk-send CSV against a PDF template, making nothing',
    description: `${CSV_FORMAT}\n\nAnswers every row with its parties and its problems (\`errors\`); a file that cannot be read at all (no header, unknown columns) is a 400.`,
    tag,
    access: 'user',
    rawBody: csvBody,
    example: { file: { name: 'parties.csv', contentType: 'text/csv' } },
    responses: { 200: { description: 'The rows as read', schema: ZBulkPreviewSchema } },
    problemStatuses: [409],
    handler: async ({ res, ids, raw, actor, act }) => {
      sendJson(res, 200, await act(previewBulkSend, ids.template_id, raw ?? Buffer.alloc(0), actor));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contract_templates/:template_id/bulk_sends',
    operationId: 'createBulkSend',
    summary: 'Make and send one contract per CSV row from a PDF template',
    description: `${CSV_FORMAT}\n\nEach row becomes a contract made from the template (its PDF and fields, the row's parties bound to the roles in order) and is sent at once. Rows with problems are recorded as failed and not sent; a file none of whose rows can be sent is a 400 and makes nothing. The rows are sent in the background, each in one transaction: follow \`GET /api/bulk_sends/{id}\` until \`pending\` is 0.`,
    tag,
    access: 'user',
    rawBody: csvBody,
    example: { file: { name: 'parties.csv', contentType: 'text/csv' } },
    responses: { 201: { description: 'The bulk send, its rows pending or failed', schema: ZBulkSendSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, raw, actor, act }) => {
      const batch = await act(createBulkSend, ids.template_id, raw ?? Buffer.alloc(0), actor);
      sendJson(res, 201, presentBulkSend(ctx, batch, await ctx.repos.bulkSends.rowsOf(batch.id)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/bulk_sends',
    operationId: 'listBulkSends',
    summary: "List bulk sends, newest first (an ordinary user's own only)",
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of bulk sends', schema: z.array(ZBulkSendSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, query, actor }) => {
      const userId = bulkSendListScope(actor);
      const request = readPageRequest(query, 'bulk-sends:-id', 1);
      const page = await ctx.repos.bulkSends.listPage(request, userId);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.bulkSends.count(userId), async (row) =>
        presentBulkSend(ctx, row, await ctx.repos.bulkSends.rowsOf(row.id)),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/bulk_sends/:bulk_send_id',
    operationId: 'getBulkSend',
    summary: 'A bulk send: each row sent (with its contract), failed (with why) or pending',
    tag,
    access: 'user',
    responses: { 200: { description: 'The bulk send', schema: ZBulkSendSchema } },
    handler: async ({ res, ctx, ids, actor }) => {
      const batch = await findBulkSend(ctx, ids.bulk_send_id, actor);
      sendJson(res, 200, presentBulkSend(ctx, batch, await ctx.repos.bulkSends.rowsOf(batch.id)));
    },
  }),
];
