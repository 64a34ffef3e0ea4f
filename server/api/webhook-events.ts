import { z } from 'zod';
import {
  ZWebhookBulkRetryResultSchema,
  ZWebhookBulkRetrySchema,
  ZWebhookEventQuerySchema,
  ZWebhookEventRetrySchema,
  ZWebhookEventSchema,
  type TWebhookAttempt,
  type TWebhookEvent,
  type TWebhookEventData,
  type WebhookAttemptOutcome,
  type WebhookDeliveryState,
  type WebhookEventType,
} from '../../shared/api/webhooks';
import type { RouteContext } from '../http/route';
import type { WebhookAttemptRow } from '../db/repos/webhook-log';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { readWebhookEvent, readWebhookLogPage, type WebhookLogRead } from '../webhooks/read-webhook-log';
import { retryWebhookEvent, retryWebhookEvents } from '../webhooks/retry-webhook-event';

type Payload = { type: WebhookEventType; timestamp: string; data: TWebhookEventData };

function presentAttempt(ctx: RouteContext, row: WebhookAttemptRow): TWebhookAttempt {
  return {
    time: ctx.timestamp(row.attemptedAt),
    status_code: row.statusCode,
    error: row.error,
    duration_ms: row.durationMs,
    response_excerpt: row.responseExcerpt,
    outcome: row.outcome as WebhookAttemptOutcome,
  };
}

/** Pages of the log: each event with its delivery to this consumer and every attempt. */
function presentEvents(
  ctx: RouteContext,
  consumerId: number,
  { rows, attempts: read }: WebhookLogRead,
): TWebhookEvent[] {
  const attempts = new Map<number, TWebhookAttempt[]>();
  for (const attempt of read) {
    const list = attempts.get(attempt.deliveryId) ?? [];
    list.push(presentAttempt(ctx, attempt));
    attempts.set(attempt.deliveryId, list);
  }
  return rows.map((row) => {
    const payload = JSON.parse(row.payload) as Payload;
    return {
      self: `/api/webhooks/${consumerId}/events/${row.eventId}`,
      event_id: row.eventId,
      type: payload.type,
      timestamp: payload.timestamp,
      data: payload.data,
      state: row.state as WebhookDeliveryState,
      // Held events wait for the consumer to be enabled (and their turn), not for a time.
      next_attempt_time: row.state === 'pending' ? ctx.timestampOrNull(row.nextAttemptAt) : null,
      attempts: attempts.get(row.deliveryId) ?? [],
    };
  });
}

async function requireConsumer(ctx: RouteContext, id: number): Promise<void> {
  if (!(await ctx.repos.webhookConsumers.findById(id))) throw notFound('webhook consumer');
}

const tag = 'Webhook consumers';

export const webhookEventRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/webhooks/:webhook_id/events',
    operationId: 'listWebhookEvents',
    summary: "A consumer's event log, newest first",
    description:
      'Events of the last month sent (or being sent) to this consumer, each with its delivery state and every attempt.',
    tag,
    access: 'admin',
    query: ZWebhookEventQuerySchema,
    example: { query: { state: 'failed' } },
    responses: { 200: { description: 'A page of events', schema: z.array(ZWebhookEventSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, ids, query, act }) => {
      await requireConsumer(ctx, ids.webhook_id);
      const request = readPageRequest(query, 'webhook-events:-id', 1);
      const { page, total, ...read } = await act(readWebhookLogPage, ids.webhook_id, query.state, request);
      const items = presentEvents(ctx, ids.webhook_id, read);
      await sendPage(req, res, ctx.baseUrl(), request, { ...page, rows: items }, total, (item) => item);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/webhooks/:webhook_id/events/:event_id',
    operationId: 'getWebhookEvent',
    summary: 'One event of the log with its attempts',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The event', schema: ZWebhookEventSchema } },
    handler: async ({ res, ctx, ids, act }) => {
      await requireConsumer(ctx, ids.webhook_id);
      const read = await act(readWebhookEvent, ids.webhook_id, ids.event_id);
      if (!read) throw notFound('event of this webhook consumer');
      sendJson(res, 200, presentEvents(ctx, ids.webhook_id, read)[0]);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhooks/:webhook_id/events/:event_id/retry',
    operationId: 'retryWebhookEvent',
    summary: 'Send an event again now',
    description:
      'One attempt now, then the retry schedule from its start, whatever the state: held, pending, failed, and delivered only with `{"redeliver": true}` (else 409). A disabled consumer gets nothing (409): enable it first. Every delivery of the event carries the same `Webhook-Id` header, so the receiver can recognise a repeat.',
    tag,
    access: 'admin',
    body: ZWebhookEventRetrySchema,
    isBodyOptional: true,
    example: { body: { redeliver: true } },
    responses: { 200: { description: 'The event, pending again', schema: ZWebhookEventSchema } },
    problemStatuses: [409],
    handler: async ({ res, ctx, ids, body, act }) => {
      const row = await act(retryWebhookEvent, ids.webhook_id, ids.event_id, body ?? {});
      // As the retry left it (pending again), with the attempts made before it.
      const attempts = await ctx.repos.webhookLog.attemptsOf([row.deliveryId]);
      sendJson(res, 200, presentEvents(ctx, ids.webhook_id, { rows: [row], attempts })[0]);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/webhooks/:webhook_id/events/retry',
    operationId: 'retryWebhookEvents',
    summary: "Send a consumer's held, failed (or delivered) events again",
    description:
      'Failed events (and delivered ones, with `redeliver: true`; without it 409) start afresh now; held events go out one after another in event order. A disabled consumer gets nothing (409): enable it first. Answers how many events of each state were queued.',
    tag,
    access: 'admin',
    body: ZWebhookBulkRetrySchema,
    example: { body: { states: ['held', 'failed'] } },
    responses: { 200: { description: 'What was queued', schema: ZWebhookBulkRetryResultSchema } },
    problemStatuses: [409],
    handler: async ({ res, ids, body, act }) => {
      sendJson(res, 200, await act(retryWebhookEvents, ids.webhook_id, body));
    },
  }),
];
