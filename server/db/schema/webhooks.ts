import { blob, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';

/**
 * A registered receiver of events. The Ed25519 key pair is made at registration: the public
 * key is kept raw (presented as SPKI PEM), the secret seed only sealed with the appliance's key
 * in DATA_DIR/keys, so that the database alone (a backup, a stolen file) never reveals it.
 */
export const webhookConsumers = sqliteTable('webhook_consumers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  url: text('url').notNull(),
  contactEmail: text('contact_email'),
  /** The opt-in event types it receives beyond the interface's three, as a JSON array. */
  events: text('events').notNull().default('[]'),
  publicKey: blob('public_key', { mode: 'buffer' }).notNull(),
  sealedSecretKey: blob('sealed_secret_key', { mode: 'buffer' }).notNull(),
  /** Permanent delivery errors since the last 2xx; ten disable the consumer. */
  permanentErrors: integer('permanent_errors').notNull().default(0),
  disabledAt: integer('disabled_at'),
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/** One event; `payload` is the exact request body every consumer receives on every attempt. */
export const webhookEvents = sqliteTable(
  'webhook_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('webhook_events_created').on(t.createdAt)],
);

/**
 * One event for one consumer. `courseAttempts` counts the attempts since the delivery was
 * (re)started: it picks the next delay of the retry schedule.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: integer('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    consumerId: integer('consumer_id')
      .notNull()
      .references(() => webhookConsumers.id, { onDelete: 'cascade' }),
    /** pending | delivered | failed */
    state: text('state').notNull().default('pending'),
    courseAttempts: integer('course_attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    /**
     * Released from held and not yet attempted: sent only after the consumer's previous released
     * one was answered, so held events arrive in event order, also after a restart.
     */
    inOrder: integer('in_order', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_consumer_event').on(t.consumerId, t.eventId),
    index('webhook_deliveries_event').on(t.eventId),
    index('webhook_deliveries_consumer_state').on(t.consumerId, t.state),
  ],
);

/** One HTTP try: what was answered (or what went wrong), how long it took, and the start of the answer. */
export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: integer('attempted_at').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    responseExcerpt: text('response_excerpt').notNull().default(''),
    /** delivered | retry | failed (retries used up) | permanent */
    outcome: text('outcome').notNull(),
  },
  (t) => [index('webhook_attempts_delivery').on(t.deliveryId)],
);
