import type { ZodOpenApiPathsObject } from 'zod-openapi';
import { WEBHOOK_PAYLOAD_SCHEMAS, ZWebhookRequestHeadersSchema } from '../../shared/api/webhook-payloads';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../shared/api/webhooks';

import { DEFAULT_RETRY_SCHEDULE_S } from '../config/config';
import { PERMANENT_ERRORS_TO_DISABLE } from '../webhooks/settle-attempts';

/** The default WEBHOOK_TIMEOUT_MS, in the interface's words. */
const WEBHOOK_ANSWER_SECONDS = 10;

const SUMMARIES: Record<WebhookEventType, string> = {
  'contract.signed': 'A contract has been accepted by every party',
  'contract.rejected': 'A party rejected a contract',
  'contract.party_signed': 'One party accepted a contract',
  'contract.sent': 'A contract was sent for signing (opt-in)',
  'contract.party_opened': 'A party opened its signing link (opt-in)',
  'contract.party_changed': 'A party of a sent contract was corrected (opt-in)',
  'contract.party_delegated': 'A party handed its turn to someone else (opt-in)',
  'contract.reminded': 'A party was reminded (opt-in)',
  'contract.expired': "A contract's signing links expired (opt-in)",
  'contract.withdrawn': 'A sent contract was withdrawn (opt-in)',
  'contract.timestamped': "A signed PDF got its authority's timestamp (opt-in)",
};

/** When an event fires, where its summary does not say it all (Markdown, before the delivery rules). */
const WHEN: Partial<Record<WebhookEventType, string>> = {
  'contract.party_opened': [
    'Sent once per party: the first time its signing link is opened in a browser after the contract was sent (the page, once its script has started, reports the opening), whether or not the party goes on to answer. Later openings of the link send nothing, nor do the requests the page makes itself.',
    'A plain GET or HEAD of the link (a mail scanner or a link preview following it) is no opening. A party answered without its page (`test_answer`, `auto_sign`) never opens it, so none is sent for it. A correction or a delegation makes the party someone else: the new person’s first opening is announced again, with `party_name` naming them. An opening on a full disk is not recorded; the next opening is announced.',
  ].join(' '),
};

const contractEvent = (type: WebhookEventType) => ({
  type,
  timestamp: '2026-11-22 15:30:00',
  data: { id: '/api/contracts/1' },
});
const partyEvent = (type: WebhookEventType) => ({
  type,
  timestamp: '2026-11-22 15:30:00',
  data: { id: '/api/contracts/1', party: '/api/contracts/1/parties/1' },
});

const EXAMPLES: Record<WebhookEventType, object> = {
  'contract.signed': { type: 'contract.signed', timestamp: '2026-11-22 15:30:00', data: { id: '/api/contracts/1' } },
  'contract.rejected': {
    type: 'contract.rejected',
    timestamp: '2026-11-22 15:30:00',
    data: { id: '/api/contracts/1' },
  },
  'contract.party_signed': {
    type: 'contract.party_signed',
    timestamp: '2026-11-22 15:30:00',
    data: { id: '/api/contracts/1', party: '/api/contracts/1/parties/1' },
  },
  'contract.sent': contractEvent('contract.sent'),
  'contract.party_opened': partyEvent('contract.party_opened'),
  'contract.party_changed': partyEvent('contract.party_changed'),
  'contract.party_delegated': partyEvent('contract.party_delegated'),
  'contract.reminded': partyEvent('contract.reminded'),
  'contract.expired': contractEvent('contract.expired'),
  'contract.withdrawn': contractEvent('contract.withdrawn'),
  'contract.timestamped': contractEvent('contract.timestamped'),
};

const hours = (seconds: number) => (seconds < 3600 ? `${seconds / 60} min` : `${seconds / 3600} h`);

/** The delivery rules every event shares, in words (Markdown), for the document and the docs. */
export function describeDelivery(): string {
  const schedule = DEFAULT_RETRY_SCHEDULE_S.map(hours).join(', ');
  return [
    "The interface's three events (contract.signed, contract.rejected, contract.party_signed) go to every registered consumer; the others only to consumers that name them in their `events`. Each is sent as a signed POST (RFC 9421, Ed25519; verify it with the `public_key` and `key_id` of your consumer) a couple of seconds after the change, and the same body on every attempt.",
    `Answer within ${WEBHOOK_ANSWER_SECONDS} seconds. Any 2xx means handled. 429, 5xx, any other 4xx (400 when the signature does not verify) and connection errors are retried ${schedule} after the previous attempt: the last attempt comes 75 h 35 min after the event.`,
    `No answer within ${WEBHOOK_ANSWER_SECONDS} seconds, 410 and 3xx are permanent errors and are not retried; after ${PERMANENT_ERRORS_TO_DISABLE} permanent errors in a row (a 2xx resets the count) the consumer is disabled, its contact_email (else the office) gets an e-mail, and its events wait until an administrator enables it again.`,
    'The `Webhook-Id` header is the same on every attempt of one event: de-duplicate on it.',
  ].join('\n\n');
}

/** The OpenAPI 3.1 `webhooks` section: one POST per event kind, with its payload and signature headers. */
export function buildWebhooks(): ZodOpenApiPathsObject {
  const webhooks: ZodOpenApiPathsObject = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    webhooks[type] = {
      post: {
        operationId: `event-${type}`,
        summary: SUMMARIES[type],
        description: [WHEN[type], describeDelivery()].filter(Boolean).join('\n\n'),
        tags: ['Webhook events'],
        security: [],
        requestParams: { header: ZWebhookRequestHeadersSchema },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: WEBHOOK_PAYLOAD_SCHEMAS[type], example: EXAMPLES[type] } },
        },
        responses: {
          '200': { description: 'Handled (any 2xx is)' },
          '400': { description: 'The signature does not verify; retried like any 4xx but 410' },
          '410': { description: 'Gone: a permanent error, not retried' },
          '429': { description: 'Busy: retried on the schedule' },
          '5XX': { description: 'Retried on the schedule' },
        },
        'x-retry-schedule-seconds': [...DEFAULT_RETRY_SCHEDULE_S],
        'x-answer-within-seconds': WEBHOOK_ANSWER_SECONDS,
        'x-permanent-errors-to-disable': PERMANENT_ERRORS_TO_DISABLE,
      },
    };
  }
  return webhooks;
}
