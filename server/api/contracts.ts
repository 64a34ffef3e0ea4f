import { z } from 'zod';
import {
  CONTRACT_READ_ONLY_FIELDS,
  ZContractCreateQuerySchema,
  ZContractCreateSchema,
  ZContractListQuerySchema,
  ZContractSchema,
  ZContractUpdateSchema,
} from '../../shared/api/contracts';
import { MAX_UPLOAD_BYTES } from '../../shared/constants';
import { parseFilterTimestamp } from '../../shared/time';
import { validationFailed } from '../core/errors';
import { contractOrdering, type ContractFilter } from '../db/repos/contracts';
import { markPartialSearch, readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { createContractFromJson, createContractFromPdf } from '../contracts/create-contract';
import { deleteContract } from '../contracts/delete-contract';
import { findContract } from '../contracts/find-draft';
import { contractListUser } from '../policies/contracts';
import { requestOrigin } from '../activity/log-activity';
import { updateContract } from '../contracts/update-contract';
import { presentContract } from './contract-presenters';

const tag = 'Contracts';

function updatedSinceOf(text: string | undefined, timeZone: string): number | undefined {
  if (text === undefined) return undefined;
  const at = parseFilterTimestamp(text, timeZone);
  if (at === undefined)
    throw validationFailed([`updated_since: ${text} is not a real time (an office time is read in ${timeZone})`]);
  return at;
}

export const contractRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts',
    operationId: 'listContracts',
    summary: 'List contracts, newest first unless sorted',
    description:
      'Filters combine. `sort` takes id, name and is_signed (- for descending); name sorts case-insensitively, and ties are broken by id in the direction of the name or id term, else of the first term.',
    tag,
    access: 'user',
    query: ZContractListQuerySchema,
    example: { query: { status: 'sent', sort: '-id' } },
    responses: {
      200: { description: 'A page of contracts', schema: z.array(ZContractSchema), isPaginated: true, isSearch: true },
    },
    handler: async ({ req, res, ctx, query, actor }) => {
      const filter: ContractFilter = {
        status: query.status,
        userId: contractListUser(actor, query.user),
        name: query.name || undefined,
        q: query.q || undefined,
        metadata: query.metadata ? Object.entries(query.metadata) : undefined,
        updatedSince: updatedSinceOf(query.updated_since, ctx.config.timeZone),
      };
      const ordering = contractOrdering(query.sort, filter);
      const request = readPageRequest(query, ordering.signature, ordering.keys.length);
      // A search reads on a search thread (server/db/search-pool.ts); the rest are index seeks and kept counts.
      const { page, total, isPartial } =
        filter.name || filter.q
          ? await ctx.search.list(request, filter, query.sort)
          : {
              page: await ctx.repos.contracts.listPage(request, filter, ordering),
              total: await ctx.repos.contracts.total(filter),
              isPartial: false,
            };
      markPartialSearch(res, isPartial);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, async (row) => presentContract(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts',
    operationId: 'createContract',
    summary: 'Create a draft from a PDF body, or from JSON (rendered from a template or from content)',
    description:
      "Send the PDF itself as `application/pdf` (at most 2 MiB; it must be a whole, unencrypted PDF) and name it with `?name=`, or send a JSON object: its optional `template` names the template to render the PDF from, and any other writable field may come along. The answer's `Location` is the new contract's path.",
    tag,
    access: 'user',
    query: ZContractCreateQuerySchema,
    body: ZContractCreateSchema,
    isBodyOptional: true,
    readOnlyFields: CONTRACT_READ_ONLY_FIELDS,
    rawBody: {
      contentTypes: ['application/pdf'],
      maxBytes: MAX_UPLOAD_BYTES,
      description: 'The contract PDF, at most 2 MiB',
      noun: 'PDF',
      isForSandbox: true,
    },
    // curl sends the PDF; the JSON example is published for the other way in.
    example: {
      query: { name: 'Lease agreement' },
      file: { name: 'contract.pdf', contentType: 'application/pdf' },
      body: { template: '/api/contract_templates/1', language: 'sv' },
    },
    responses: { 201: { description: 'The contract', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, query, body, raw, actor, act }) => {
      const origin = requestOrigin(req);
      // The content type decides, also for an empty body: an empty PDF is refused, empty JSON is all defaults.
      const isJson = /^application\/(json|x-www-form-urlencoded)\b/i.test(req.headers['content-type'] ?? '');
      if (isJson && query.name !== undefined && body?.name !== undefined) {
        throw validationFailed(['name: give the name in the query or in the body, not both']);
      }
      if (isJson && query.metadata !== undefined && body?.metadata !== undefined) {
        throw validationFailed(['metadata: give the metadata in the query or in the body, not both']);
      }
      const contract = isJson
        ? await act(
            createContractFromJson,
            {
              ...body,
              ...(query.name === undefined ? {} : { name: query.name }),
              ...(query.metadata === undefined ? {} : { metadata: query.metadata }),
            },
            actor,
            origin,
          )
        : await act(createContractFromPdf, raw ?? Buffer.alloc(0), query.name, actor, origin, query.metadata);
      sendJson(res, 201, await presentContract(ctx, contract));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id',
    operationId: 'getContract',
    summary: 'Get a contract',
    tag,
    access: 'user',
    responses: { 200: { description: 'The contract', schema: ZContractSchema } },
    handler: async ({ res, ctx, ids, actor }) => {
      sendJson(res, 200, await presentContract(ctx, await findContract(ctx, ids.contract_id, actor)));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contracts/:contract_id',
    operationId: 'updateContract',
    summary: 'Change a draft; only the fields sent change',
    description:
      'A new `content`, `template` or `language` renders the PDF of a contract made from text again. 409 once sent.',
    tag,
    access: 'user',
    body: ZContractUpdateSchema,
    readOnlyFields: CONTRACT_READ_ONLY_FIELDS,
    example: {
      body: {
        name: 'Lease agreement, Storgatan 1',
        language: 'sv',
        party_order_defined: true,
        show_identity_number: true,
      },
    },
    responses: { 200: { description: 'The contract', schema: ZContractSchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(
        res,
        200,
        await presentContract(ctx, await act(updateContract, ids.contract_id, body, actor, requestOrigin(req))),
      );
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contracts/:contract_id',
    operationId: 'deleteContract',
    summary: 'Delete a draft with its parties, annotations and attachments',
    tag,
    access: 'user',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ res, ids, actor, act }) => {
      await act(deleteContract, ids.contract_id, actor);
      res.status(204).end();
    },
  }),
];
