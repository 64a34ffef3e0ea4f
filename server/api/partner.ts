import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  CUSTOMER_READ_ONLY_FIELDS,
  TOKEN_READ_ONLY_FIELDS,
  ZCreatedTokenSchema,
  ZCustomerSchema,
  ZCustomerUpdateSchema,
  ZTokenCreateSchema,
  ZTokenSchema,
  ZTokenUpdateSchema,
  type TCustomer,
  type TToken,
} from '../../shared/api/partner';
import type { RouteContext } from '../http/route';
import type { TokenRow } from '../db/repos/tokens';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { updateToken, revokeToken } from '../tokens/change-token';
import { createToken } from '../tokens/create-token';
import { updateCustomer } from '../tokens/update-customer';

async function presentCustomer(ctx: RouteContext): Promise<TCustomer> {
  const row = await ctx.repos.office.get(ctx.now());
  return {
    self: '/api/partner/customer',
    name: row.name,
    email: row.email,
    default_rate_limit: row.defaultRateLimit,
    is_set_up: row.setUpAt !== null,
    created_time: ctx.timestamp(row.createdAt),
  };
}

export async function presentToken(ctx: RouteContext, row: TokenRow): Promise<TToken> {
  return {
    self: `/api/partner/tokens/${row.id}`,
    name: row.name,
    kind: row.kind as TToken['kind'],
    public_id: row.publicId,
    rate_limit: row.rateLimit ?? (await ctx.repos.office.get(ctx.now())).defaultRateLimit,
    has_own_rate_limit: row.rateLimit !== null,
    user: `/api/users/${row.ownerUserId}`,
    created_time: ctx.timestamp(row.createdAt),
    last_used_time: ctx.timestampOrNull(row.lastUsedAt),
    revoked_time: ctx.timestampOrNull(row.revokedAt),
  };
}

const tag = 'Partner';
const userIdOf = (path: string) => Number(path.split('/').at(-1));

export const partnerRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/partner/customer',
    operationId: 'getCustomer',
    summary: "The office's profile and subscription limits",
    tag,
    access: 'partner',
    responses: { 200: { description: 'The office', schema: ZCustomerSchema } },
    handler: async ({ res, ctx }) => sendJson(res, 200, await presentCustomer(ctx)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/partner/customer',
    operationId: 'updateCustomer',
    summary: "Change the office's profile or its default rate limit",
    tag,
    access: 'partner',
    body: ZCustomerUpdateSchema,
    readOnlyFields: CUSTOMER_READ_ONLY_FIELDS,
    example: { body: { name: 'Office AB', email: 'office@office.example', default_rate_limit: 60 } },
    responses: { 200: { description: 'The office', schema: ZCustomerSchema } },
    handler: async ({ res, ctx, body, act }) => {
      await act(updateCustomer, body);
      sendJson(res, 200, await presentCustomer(ctx));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/partner/tokens',
    operationId: 'listTokens',
    summary: 'List API tokens, newest first, revoked ones included',
    tag,
    access: 'partner',
    query: ZPageQuerySchema,
    responses: { 200: { description: 'A page of tokens', schema: z.array(ZTokenSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, query }) => {
      const request = readPageRequest(query, 'tokens:-id', 1);
      const page = await ctx.repos.tokens.listPage(request);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.tokens.count(), async (row) =>
        presentToken(ctx, row),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/partner/tokens',
    operationId: 'createToken',
    summary: 'Create an API token; the key is in the response once and never again',
    tag,
    access: 'partner',
    body: ZTokenCreateSchema,
    readOnlyFields: TOKEN_READ_ONLY_FIELDS,
    example: { body: { name: 'CRM integration', kind: 'customer', rate_limit: 120 } },
    responses: { 201: { description: 'The token with its key', schema: ZCreatedTokenSchema } },
    handler: async ({ res, ctx, body, actor, act }) => {
      const { row, apiKey } = await act(createToken, {
        name: body.name,
        kind: body.kind ?? 'customer',
        rateLimit: body.rate_limit ?? null,
        ownerUserId: body.user === undefined ? actor.id : userIdOf(body.user),
      });
      sendJson(res, 201, { ...(await presentToken(ctx, row)), api_key: apiKey });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/partner/tokens/:token_id',
    operationId: 'getToken',
    summary: 'Get an API token (never its secret)',
    tag,
    access: 'partner',
    responses: { 200: { description: 'The token', schema: ZTokenSchema } },
    handler: async ({ res, ctx, ids }) => {
      const row = await ctx.repos.tokens.findById(ids.token_id);
      if (!row) throw notFound('API token');
      sendJson(res, 200, await presentToken(ctx, row));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/partner/tokens/:token_id',
    operationId: 'updateToken',
    summary: "Rename a token or change its rate limit (null: the office's default)",
    tag,
    access: 'partner',
    body: ZTokenUpdateSchema,
    readOnlyFields: TOKEN_READ_ONLY_FIELDS,
    example: { body: { rate_limit: 300 } },
    responses: { 200: { description: 'The token', schema: ZTokenSchema } },
    handler: async ({ res, ctx, ids, body, act }) => {
      sendJson(res, 200, await presentToken(ctx, await act(updateToken, ids.token_id, body)));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/partner/tokens/:token_id',
    operationId: 'revokeToken',
    summary: 'Revoke an API token; it stops working at once and stays listed as revoked',
    tag,
    access: 'partner',
    responses: { 204: { description: 'Revoked' } },
    handler: async ({ res, ctx, ids, act }) => {
      await act(revokeToken, ids.token_id);
      res.status(204).end();
    },
  }),
];
