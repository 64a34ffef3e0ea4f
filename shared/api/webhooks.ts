import { z } from 'zod';
import { MAX_STRING_LENGTH } from '../constants';
import { ZPageQuerySchema, ZTimestampSchema } from './common';

/** The interface's events: every consumer receives them, whatever else it chose. */
export const CORE_WEBHOOK_EVENT_TYPES = ['contract.signed', 'contract.rejected', 'contract.party_signed'] as const;
/** Events a consumer receives only when it names them in its `events`. */
export const OPTIONAL_WEBHOOK_EVENT_TYPES = [
  'contract.sent',
  'contract.party_opened',
  'contract.party_changed',
  'contract.party_delegated',
  'contract.reminded',
  'contract.expired',
  'contract.withdrawn',
  'contract.timestamped',
] as const;
export const WEBHOOK_EVENT_TYPES = [...CORE_WEBHOOK_EVENT_TYPES, ...OPTIONAL_WEBHOOK_EVENT_TYPES] as const;
/**
 * held: raised while the consumer was disabled, not attempted; sent in event order once it is
 * enabled. pending: attempts remain. delivered: a 2xx came back. failed: no more attempts.
 */
export const WEBHOOK_DELIVERY_STATES = ['held', 'pending', 'delivered', 'failed'] as const;
/** The states a bulk retry can take up; `delivered` also needs `redeliver: true`. */
export const WEBHOOK_RETRYABLE_STATES = ['held', 'failed', 'delivered'] as const;
/** The header that carries the event's id (`event_id` of the event log) on every delivery. */
export const WEBHOOK_ID_HEADER = 'Webhook-Id';
/** What one attempt led to: `permanent` is a 3xx, 410 or no answer in time. */
export const WEBHOOK_ATTEMPT_OUTCOMES = ['delivered', 'retry', 'failed', 'permanent'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type CoreWebhookEventType = (typeof CORE_WEBHOOK_EVENT_TYPES)[number];
export type OptionalWebhookEventType = (typeof OPTIONAL_WEBHOOK_EVENT_TYPES)[number];

export const isOptionalWebhookEvent = (type: string): type is OptionalWebhookEventType =>
  (OPTIONAL_WEBHOOK_EVENT_TYPES as readonly string[]).includes(type);
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];
export type WebhookAttemptOutcome = (typeof WEBHOOK_ATTEMPT_OUTCOMES)[number];

/** Why a URL cannot receive webhooks, or undefined when it can. Loopback and LAN hosts are allowed. */
export function describeWebhookUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL';
  if (url.hostname === '') return 'must name a host';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.hash !== '') return 'must not contain a #fragment';
  return undefined;
}

const webhookUrl = z
  .string()
  .max(MAX_STRING_LENGTH)
  .superRefine((text, ctx) => {
    const problem = describeWebhookUrlProblem(text);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    description: 'Where events are POSTed: http or https, loopback and LAN hosts allowed',
    example: 'https://crm.office.example/hooks/signdesk',
  });

const chosenEvents = z
  .array(z.enum(OPTIONAL_WEBHOOK_EVENT_TYPES))
  .max(OPTIONAL_WEBHOOK_EVENT_TYPES.length)
  .meta({
    description:
      'Events this consumer receives beyond the three every consumer receives (contract.signed, contract.rejected, contract.party_signed, which cannot be turned off); [] for only those three',
    example: ['contract.sent', 'contract.party_opened'],
  });

const contactEmail = z
  .email()
  .max(MAX_STRING_LENGTH)
  .nullable()
  .meta({ description: 'Receives the notice when the consumer is disabled; null: the office e-mail' });

export const ZWebhookConsumerSchema = z
  .object({
    self: z.string().meta({ example: '/api/webhooks/1' }),
    url: z.string().meta({ example: 'http://127.0.0.1:4242/webhooks' }),
    contact_email: z
      .string()
      .nullable()
      .meta({ description: 'Receives the notice when the consumer is disabled', example: 'it@office.example' }),
    public_key: z.string().meta({
      description: 'Ed25519 public key, PEM (SubjectPublicKeyInfo): verifies the signatures of its events',
      example:
        '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n',
    }),
    key_id: z.string().meta({ description: 'The keyid of event signatures, ed25519-<n>', example: 'ed25519-1' }),
    events: chosenEvents,
    created_time: ZTimestampSchema,
    disabled_time: ZTimestampSchema.nullable().meta({
      description: 'Set while the consumer is disabled',
      example: null,
    }),
    created_by: z.string().meta({ example: '/api/users/1' }),
  })
  .meta({ id: 'ApiWebhookConsumer' });

export const ZWebhookConsumerCreateSchema = z
  .strictObject({ url: webhookUrl, contact_email: contactEmail.optional(), events: chosenEvents.optional() })
  .meta({ id: 'ApiWebhookConsumerCreate' });

export const ZWebhookConsumerUpdateSchema = z
  .strictObject({ url: webhookUrl.optional(), contact_email: contactEmail.optional(), events: chosenEvents.optional() })
  .meta({ id: 'ApiWebhookConsumerUpdate' });

export const WEBHOOK_READ_ONLY_FIELDS = [
  'self',
  'public_key',
  'key_id',
  'created_time',
  'disabled_time',
  'created_by',
] as const;

export const ZWebhookEventDataSchema = z
  .object({ id: z.string(), party: z.string().optional(), party_name: z.string().optional() })
  .meta({ id: 'WebhookEventData', description: 'Paths of the resources the event is about' });

export const ZWebhookAttemptSchema = z
  .object({
    time: ZTimestampSchema,
    status_code: z.number().int().nullable().meta({ description: 'null when no HTTP answer came' }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why there was no usable answer (timeout, connection refused, ...)' }),
    duration_ms: z.number().int(),
    response_excerpt: z.string().meta({ description: 'The first KiB of the answer body' }),
    outcome: z.enum(WEBHOOK_ATTEMPT_OUTCOMES),
  })
  .meta({ id: 'ApiWebhookAttempt' });

export const ZWebhookEventSchema = z
  .object({
    self: z.string().meta({ example: '/api/webhooks/1/events/42' }),
    event_id: z
      .number()
      .int()
      .meta({ description: 'The event id; every delivery of the event carries it in the Webhook-Id header' }),
    type: z.enum(WEBHOOK_EVENT_TYPES),
    timestamp: ZTimestampSchema.meta({ description: "The payload timestamp, in the office's time zone" }),
    data: ZWebhookEventDataSchema,
    state: z.enum(WEBHOOK_DELIVERY_STATES),
    next_attempt_time: ZTimestampSchema.nullable(),
    attempts: z.array(ZWebhookAttemptSchema).meta({ description: 'Every attempt, oldest first' }),
  })
  .meta({ id: 'ApiWebhookEvent', description: 'An event as delivered to one consumer' });

export const ZWebhookEventRetrySchema = z
  .strictObject({
    redeliver: z
      .boolean()
      .optional()
      .meta({ description: 'Needed (true) to send an event that was already delivered again' }),
  })
  .meta({ id: 'ApiWebhookEventRetry' });

export const ZWebhookBulkRetrySchema = z
  .strictObject({
    states: z
      .array(z.enum(WEBHOOK_RETRYABLE_STATES))
      .min(1)
      .max(WEBHOOK_RETRYABLE_STATES.length)
      .meta({
        description: 'Which events to send again: held (sent in event order), failed, delivered (needs redeliver)',
        example: ['held', 'failed'],
      }),
    redeliver: z.boolean().optional().meta({ description: 'Needed (true) when states holds delivered' }),
  })
  .meta({ id: 'ApiWebhookBulkRetry' });

export const ZWebhookBulkRetryResultSchema = z
  .object({
    queued: z
      .object({ held: z.number().int(), failed: z.number().int(), delivered: z.number().int() })
      .meta({ description: 'How many events of each state were queued to be sent' }),
    total: z.number().int(),
  })
  .meta({ id: 'ApiWebhookBulkRetryResult' });

export const ZWebhookEventQuerySchema = ZPageQuerySchema.extend({
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional().meta({ description: 'Only events in this delivery state' }),
});

export type TWebhookConsumer = z.infer<typeof ZWebhookConsumerSchema>;
export type TWebhookConsumerCreate = z.infer<typeof ZWebhookConsumerCreateSchema>;
export type TWebhookConsumerUpdate = z.infer<typeof ZWebhookConsumerUpdateSchema>;
export type TWebhookEvent = z.infer<typeof ZWebhookEventSchema>;
export type TWebhookAttempt = z.infer<typeof ZWebhookAttemptSchema>;
export type TWebhookEventData = z.infer<typeof ZWebhookEventDataSchema>;
export type TWebhookBulkRetry = z.infer<typeof ZWebhookBulkRetrySchema>;
export type TWebhookBulkRetryResult = z.infer<typeof ZWebhookBulkRetryResultSchema>;
