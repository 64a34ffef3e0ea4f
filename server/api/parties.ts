import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  PARTY_READ_ONLY_FIELDS,
  ZPartyCorrectionSchema,
  ZPartyCreateSchema,
  ZPartySchema,
  ZPartyUpdateSchema,
} from '../../shared/api/parties';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { findContract } from '../contracts/find-draft';
import { requestOrigin } from '../activity/log-activity';
import { createParty, deleteParty, updateParty } from '../contracts/save-party';
import { correctParty } from '../signing/correct-party';
import { answerAsTest } from '../signing/answer-as-test';
import { ZTestAnswerSchema } from '../../shared/api/signing';
import { presentParty } from './contract-presenters';

const tag = 'Contract parties';

export const partyRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/parties',
    operationId: 'listContractParties',
    summary: 'List the parties of a contract, newest first',
    tag,
    access: 'user',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of parties', schema: z.array(ZPartySchema), isPaginated: true } },
    handler: async ({ req, res, ctx, ids, query, actor }) => {
      const contract = await findContract(ctx, ids.contract_id, actor);
      const request = readPageRequest(query, 'parties:-id', 1);
      const page = await ctx.repos.parties.listPage(contract.id, request);
      const total = await ctx.repos.parties.countInContract(contract.id);
      await sendPage(req, res, ctx.baseUrl(), request, page, total, (row) => presentParty(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/parties',
    operationId: 'createContractParty',
    summary: 'Add a party to a draft',
    tag,
    access: 'user',
    body: ZPartyCreateSchema,
    readOnlyFields: PARTY_READ_ONLY_FIELDS,
    example: {
      body: { name: 'Signe Svensson', email: 'signe@office.example', delivery_method: 'EMAIL', user: '/api/users/1' },
    },
    responses: { 201: { description: 'The party', schema: ZPartySchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      sendJson(res, 201, presentParty(ctx, await act(createParty, ids.contract_id, body, actor, requestOrigin(req))));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/contracts/:contract_id/parties/:party_id',
    operationId: 'getContractParty',
    summary: 'Get a party',
    tag,
    access: 'user',
    responses: { 200: { description: 'The party', schema: ZPartySchema } },
    handler: async ({ res, ctx, ids, actor }) => {
      await findContract(ctx, ids.contract_id, actor);
      const party = await ctx.repos.parties.findInContract(ids.contract_id, ids.party_id);
      if (!party) throw notFound('party');
      sendJson(res, 200, presentParty(ctx, party));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/contracts/:contract_id/parties/:party_id',
    operationId: 'updateContractParty',
    summary: 'Change a party of a draft; only the fields sent change',
    tag,
    access: 'user',
    body: ZPartyUpdateSchema,
    // A party's role is chosen when it is added; a body read from GET may carry it back.
    readOnlyFields: [...PARTY_READ_ONLY_FIELDS, 'role'],
    example: { body: { mobile_phone: '+46 70 123 45 67', delivery_method: 'EMAIL_AND_SMS' } },
    responses: { 200: { description: 'The party', schema: ZPartySchema } },
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      const party = await act(updateParty, ids.contract_id, ids.party_id, body, actor, requestOrigin(req));
      sendJson(res, 200, presentParty(ctx, party));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/parties/:party_id/correction',
    operationId: 'correctContractParty',
    summary: 'Correct a party of a sent contract who has not answered: new details, a new link, a new invitation',
    description:
      "For a sent contract (PUT stays refused once sent). Changes any of name, email, mobile_phone and delivery_method, and says why in `reason` (the audit trail shows who changed what and why). The party's old link stops working at once; a party that was invited already is invited again with its new link (not when the contract was sent silently; then hand it the new `contract_url`). 409 when the contract is a draft, answered, withdrawn or expired, or the party has answered.",
    tag,
    access: 'user',
    body: ZPartyCorrectionSchema,
    example: { body: { email: 'signe.svensson@office.example', reason: 'E-mail address mistyped' } },
    responses: { 200: { description: 'The corrected party, with its new contract_url', schema: ZPartySchema } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      const party = await act(correctParty, ids.contract_id, ids.party_id, body, actor, requestOrigin(req));
      sendJson(res, 200, presentParty(ctx, party));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/contracts/:contract_id/parties/:party_id',
    operationId: 'deleteContractParty',
    summary: 'Remove a party (and its annotations) from a draft',
    tag,
    access: 'user',
    responses: { 204: { description: 'Removed' } },
    handler: async ({ req, res, ids, actor, act }) => {
      await act(deleteParty, ids.contract_id, ids.party_id, actor, requestOrigin(req));
      res.status(204).end();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/contracts/:contract_id/parties/:party_id/test_answer',
    operationId: 'testAnswerContractParty',
    summary: 'Answer for a party of a test contract (test_mode), as its signing page would',
    description:
      "For integration tests: accept (sign or approve, with field values) or reject for a party of a sent contract whose `test_mode` is true, with the same rules as the party's own answer (its turn, expiry, required fields). The audit trail names the answer a test answer through the API, never the party's. 409 for any contract that is not a test contract.",
    tag,
    access: 'user',
    body: ZTestAnswerSchema,
    example: { body: { answer: 'accept', signature_name: 'Signe Svensson' } },
    responses: { 200: { description: 'The party, with its answer', schema: ZPartySchema } },
    problemStatuses: [409],
    handler: async ({ req, res, ctx, ids, body, actor, act }) => {
      await act(answerAsTest, ids.contract_id, ids.party_id, body, actor, requestOrigin(req));
      const party = await ctx.repos.parties.findInContract(ids.contract_id, ids.party_id);
      if (!party) throw notFound('party');
      sendJson(res, 200, presentParty(ctx, party));
    },
  }),
];
