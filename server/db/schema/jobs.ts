import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The durable queue: one row per unit of background work (a webhook delivery, an outgoing
 * message). `ref_id` points at the domain row that holds the work's own state.
 */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    queue: text('queue').notNull(),
    refId: integer('ref_id').notNull(),
    /** queued | running | done | failed */
    status: text('status').notNull().default('queued'),
    runAt: integer('run_at').notNull(),
    leaseUntil: integer('lease_until'),
    claimToken: text('claim_token'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('jobs_due').on(t.queue, t.status, t.runAt), index('jobs_ref').on(t.queue, t.refId)],
);
