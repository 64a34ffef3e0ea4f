import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/** One address of a message and what its server said about it. */
export type OutboxRecipientRow = {
  address: string;
  /** pending | sent | hardbounced | softbounced | failed */
  state: string;
  response: string | null;
};

/**
 * The mail and SMS outbox: one row per message, written in the transaction of the change that
 * causes it and delivered by the 'outbox' worker (one job per row). Rows are kept as the
 * history of what went out.
 */
export const outboxMessages = sqliteTable(
  'outbox_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** email | sms */
    channel: text('channel').notNull(),
    /** The address list (e-mail) or phone number (SMS) as given. */
    recipient: text('recipient').notNull(),
    /** Each address and its outcome; attempts go only to the pending ones. */
    recipients: text('recipients', { mode: 'json' }).$type<OutboxRecipientRow[]>().notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    fromName: text('from_name'),
    replyTo: text('reply_to'),
    purpose: text('purpose').notNull(),
    /** Refer to contracts and parties (another domain's tables): plain ids, no foreign keys. */
    contractId: integer('contract_id'),
    partyId: integer('party_id'),
    /** queued | sending | sent | failed | bounced | waiting-for-config */
    state: text('state').notNull(),
    /** Every attempt ever made. */
    attempts: integer('attempts').notNull().default(0),
    /** Attempts since the message was (re)queued: the position in the retry schedule. */
    roundAttempts: integer('round_attempts').notNull().default(0),
    lastError: text('last_error'),
    /** The last SMTP reply or gateway response excerpt. */
    response: text('response'),
    messageId: text('message_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    sentAt: integer('sent_at'),
    nextAttemptAt: integer('next_attempt_at'),
  },
  (t) => [
    index('outbox_messages_state').on(t.state, t.id),
    index('outbox_messages_channel').on(t.channel, t.id),
    index('outbox_messages_party').on(t.partyId),
    index('outbox_messages_contract').on(t.contractId),
  ],
);
