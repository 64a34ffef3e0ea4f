import { ZOutboxListQuerySchema, ZOutboxMessageSchema, type TOutboxMessage } from '../../shared/api/outbox';
import { z } from 'zod';
import type { RouteContext } from '../http/route';
import type { OutboxMessageRow } from '../db/repos/outbox';
import { notFound } from '../core/errors';
import { readPageRequest, sendPage } from '../http/pagination';
import { defineRoute, sendJson, type AnyRoute } from '../http/route';
import { openBody } from '../messages/message-bodies';
import { retryOutboxMessage } from '../messages/retry-outbox-message';

/** Digits that may be a party's one-time code (a gateway may echo the SMS, an old subject held it). */
const CODE_DIGITS = /\d{6}/g;
const withheld = (text: string | null): string | null => (text === null ? null : text.replace(CODE_DIGITS, '••••••'));

/**
 * A party's one-time code is for that party alone: no field of a code message shows it, not even
 * to an administrator (the code would let them open the party's document as the party).
 */
export function presentOutboxMessage(ctx: RouteContext, row: OutboxMessageRow): TOutboxMessage {
  const shown = row.purpose === 'code' ? withheld : (text: string | null) => text;
  const contract = row.contractId === null ? null : `/api/contracts/${row.contractId}`;
  return {
    self: `/api/outbox/${row.id}`,
    channel: row.channel as TOutboxMessage['channel'],
    to: row.recipient,
    // Stored sealed (a code's mail has the code in it); null when this installation cannot open it.
    subject: shown(row.subject === null ? null : (openBody(ctx, row.subject) ?? null)),
    purpose: row.purpose,
    contract,
    party: contract !== null && row.partyId !== null ? `${contract}/parties/${row.partyId}` : null,
    state: row.state as TOutboxMessage['state'],
    attempts: row.attempts,
    last_error: shown(row.lastError),
    response: shown(row.response),
    message_id: row.messageId,
    recipients: row.recipients.map((recipient) => ({
      address: recipient.address,
      state: recipient.state as TOutboxMessage['recipients'][number]['state'],
      response: shown(recipient.response),
    })),
    created_time: ctx.timestamp(row.createdAt),
    updated_time: ctx.timestamp(row.updatedAt),
    sent_time: ctx.timestampOrNull(row.sentAt),
    next_attempt_time: ctx.timestampOrNull(row.nextAttemptAt),
  };
}

const tag = 'Outbox';

export const outboxRoutes: AnyRoute[] = [
  defineRoute({
    method: 'get',
    path: '/api/outbox',
    operationId: 'listOutbox',
    summary: 'List outgoing e-mails and SMS, newest first',
    description: 'Filter by `state` and `channel`. Message bodies are not returned: they carry signing links.',
    tag,
    access: 'admin',
    query: ZOutboxListQuerySchema,
    example: { query: { state: 'failed' } },
    responses: { 200: { description: 'A page of messages', schema: z.array(ZOutboxMessageSchema), isPaginated: true } },
    handler: async ({ req, res, ctx, query }) => {
      const filter = { state: query.state, channel: query.channel };
      const request = readPageRequest(query, `outbox:-id:${query.state ?? ''}:${query.channel ?? ''}`, 1);
      const page = await ctx.repos.outbox.listPage(request, filter);
      await sendPage(req, res, ctx.baseUrl(), request, page, await ctx.repos.outbox.count(filter), (row) =>
        presentOutboxMessage(ctx, row),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/outbox/:message_id',
    operationId: 'getOutboxMessage',
    summary: 'Get an outgoing e-mail or SMS with its state and per-recipient results',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The message', schema: ZOutboxMessageSchema } },
    handler: async ({ res, ctx, ids }) => {
      const row = await ctx.repos.outbox.findById(ids.message_id);
      if (!row) throw notFound('outbox message');
      sendJson(res, 200, presentOutboxMessage(ctx, row));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/outbox/:message_id/retry',
    operationId: 'retryOutboxMessage',
    summary: 'Send a failed or bounced message again',
    description:
      'The addresses that did not get the message are tried again now, with a fresh retry schedule. A message in any other state answers 409.',
    tag,
    access: 'admin',
    responses: { 200: { description: 'The message, queued again', schema: ZOutboxMessageSchema } },
    handler: async ({ res, ctx, ids, act }) => {
      sendJson(res, 200, presentOutboxMessage(ctx, await act(retryOutboxMessage, ids.message_id)));
    },
  }),
];
