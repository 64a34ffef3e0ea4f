import { z } from 'zod';
import { ZPageQuerySchema, ZTimestampSchema } from './common';

/** How a message travels. */
export const OUTBOX_CHANNELS = ['email', 'sms'] as const;

/**
 * Where a message is: `queued` (due now or waiting for its next retry), `sending` (an attempt
 * is under way), `sent` (the SMTP server or SMS gateway took it), `bounced` (an SMTP server
 * refused a recipient: 5xx at once, 4xx once the retries ran out), `failed` (a permanent
 * gateway error, or the server could not be reached for the whole retry schedule),
 * `waiting-for-config` (no SMTP server or SMS gateway is configured yet).
 */
export const OUTBOX_STATES = ['queued', 'sending', 'sent', 'failed', 'bounced', 'waiting-for-config'] as const;

/** What happened for one address of a message. */
export const RECIPIENT_STATES = ['pending', 'sent', 'hardbounced', 'softbounced', 'failed'] as const;

export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];
export type OutboxState = (typeof OUTBOX_STATES)[number];
export type RecipientState = (typeof RECIPIENT_STATES)[number];

export const ZOutboxRecipientSchema = z
  .object({
    address: z.string(),
    state: z.enum(RECIPIENT_STATES),
    response: z.string().nullable().meta({ description: 'The last SMTP or gateway answer for this address' }),
  })
  .meta({ id: 'OutboxRecipient' });

export const ZOutboxMessageSchema = z
  .object({
    self: z.string(),
    channel: z.enum(OUTBOX_CHANNELS),
    to: z.string(),
    subject: z.string().nullable().meta({ description: 'null for SMS' }),
    purpose: z
      .string()
      .meta({ description: 'Why the message was written, e.g. invitation, reminder, webhook-disabled' }),
    contract: z.string().nullable().meta({ description: 'Path of the contract the message is about' }),
    party: z.string().nullable().meta({ description: 'Path of the party the message went to' }),
    state: z.enum(OUTBOX_STATES),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    response: z.string().nullable().meta({ description: 'The last SMTP reply or gateway response excerpt' }),
    message_id: z.string().nullable().meta({ description: 'The Message-ID header of an e-mail' }),
    recipients: z.array(ZOutboxRecipientSchema),
    created_time: ZTimestampSchema,
    updated_time: ZTimestampSchema,
    sent_time: ZTimestampSchema.nullable(),
    next_attempt_time: ZTimestampSchema.nullable(),
  })
  .meta({
    id: 'OutboxMessage',
    description: 'An e-mail or SMS of the outbox. Bodies are not returned: they carry signing links.',
  });

export const ZOutboxListQuerySchema = ZPageQuerySchema.extend({
  state: z.enum(OUTBOX_STATES).optional(),
  channel: z.enum(OUTBOX_CHANNELS).optional(),
});

export type TOutboxMessage = z.infer<typeof ZOutboxMessageSchema>;
export type TOutboxRecipient = z.infer<typeof ZOutboxRecipientSchema>;
