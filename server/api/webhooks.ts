import { z } from 'zod';
import { ZPageQuerySchema } from '../../shared/api/common';
import {
  WEBHOOK_READ_ONLY_FIELDS,
  ZWebhookConsumerCreateSchema,
  ZWebhookConsumerSchema,
  ZWebhookConsumerUpdateSchema,
  type TWebhookConsumer,
} from '../../shared/api/webhooks';
import type { RouteContext } from '../http/route';
import { publicKeyPem } from '../crypto/webhook-keys';
import { chosenEventsOf, type WebhookConsumerRow } from '../db/repos/webhook-consumers';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { enableWebhook } from '../webhooks/save-webhook';
import { changeWebhook, registerWebhook, removeWebhook } from '../activity/office-webhooks';
import { webhookKeyId } from '../webhooks/runtime';
import { authorizeWebhookCreation } from '../policies/routes';

export function presentWebhook(ctx: RouteContext, row: WebhookConsumerRow): TWebhookConsumer {
  return {
    self: `/api/webhooks/${row.id}`,
    url: row.url,
    contact_email: row.contactEmail,
    public_key: publicKeyPem(row.publicKey),
    key_id: webhookKeyId(row.id),
    events: chosenEventsOf(row) as TWebhookConsumer['events'],
    created_time: ctx.timestamp(row.createdAt),
    disabled_time: ctx.timestampOrNull(row.disabledAt),
    created_by: `/api/users/${row.createdBy}`,
  };
}

const tag = 'Webhook consumers';

export const webhookRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/webhooks',
    operationId: 'listWebhooks',
    summary: 'List webhook consumers, newest first',
    tag,
    access: 'admin',
    query: ZPageQuerySchema,
    responses: {
      200: { description: 'A page of consumers', schema: z.array(ZWebhookConsumerSchema), isPaginated: true },
    },
    handler: async ({ req, res, ctx, query }) => {
      const request = readPageRequest(query, 'webhooks:-id', 1);
      const page = await ctx.repos.webhookConsumers.listPage(request);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.webhookConsumers.count(), (row) =>
        presentWebhook(ctx, row),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhooks',
    operationId: 'createWebhook',
    summary: 'Register a webhook consumer',
    description:
      'Needs a customer API token (a partner token gets 403). The response carries the Ed25519 `public_key` and its `key_id`: store them to verify event signatures.',
    tag,
    access: 'admin',
    body: ZWebhookConsumerCreateSchema,
    readOnlyFields: WEBHOOK_READ_ONLY_FIELDS,
    example: { body: { url: 'http://127.0.0.1:4242/webhooks', contact_email: 'it@office.example' } },
    responses: { 201: { description: 'The consumer with its public key', schema: ZWebhookConsumerSchema } },
    handler: async ({ res, ctx, body, actor, principal, act }) => {
      authorizeWebhookCreation(principal);
      sendJson(res, 201, presentWebhook(ctx, await act(registerWebhook, body, actor.id)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/webhooks/:webhook_id',
    operationId: 'getWebhook',
    summary: 'Get a webhook consumer',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The consumer', schema: ZWebhookConsumerSchema } },
    handler: async ({ res, ctx, ids }) => {
      const row = await ctx.repos.webhookConsumers.findById(ids.webhook_id);
      if (!row) throw notFound('webhook consumer');
      sendJson(res, 200, presentWebhook(ctx, row));
    },
  }),
  defineRoute({
    method: 'put',
    path: '/api/webhooks/:webhook_id',
    operationId: 'updateWebhook',
    summary: 'Change a webhook consumer; only the fields sent change',
    description:
      'A new `url` applies to every later attempt, those of pending events included. The key pair never changes.',
    tag,
    access: 'admin',
    body: ZWebhookConsumerUpdateSchema,
    readOnlyFields: WEBHOOK_READ_ONLY_FIELDS,
    example: { body: { url: 'https://crm.office.example/hooks/signdesk' } },
    responses: { 200: { description: 'The consumer', schema: ZWebhookConsumerSchema } },
    handler: async ({ res, ctx, ids, body, act }) => {
      sendJson(res, 200, presentWebhook(ctx, await act(changeWebhook, ids.webhook_id, body)));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/webhooks/:webhook_id',
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook consumer with its event log and key pair',
    tag,
    access: 'admin',
    responses: { 204: { description: 'Deleted' } },
    handler: async ({ res, ids, act }) => {
      await act(removeWebhook, ids.webhook_id);
      res.status(204).end();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhooks/:webhook_id/enable',
    operationId: 'enableWebhook',
    summary: 'Enable a webhook consumer again',
    description:
      'Clears `disabled_time` and the count of permanent errors. The events held while it was disabled (state `held` in its event log) are then sent one after another in event order; failed ones stay failed until retried (POST /api/webhooks/{id}/events/retry).',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The consumer', schema: ZWebhookConsumerSchema } },
    handler: async ({ res, ctx, ids, act }) => {
      sendJson(res, 200, presentWebhook(ctx, await act(enableWebhook, ids.webhook_id)));
    },
  }),
];
