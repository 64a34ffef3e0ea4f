import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The first answer to a POST sent with an `Idempotency-Key`, kept 24 hours so that a client's
 * retry gets it again instead of doing the work twice. `scope` is the caller (a token or a
 * signed-in user): one caller cannot read another's answers by guessing keys. `status` is null
 * while the first request is still being answered.
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the method, path, query and body: the same key with another request is refused. */
    fingerprint: text('fingerprint').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    location: text('location'),
    body: blob('body', { mode: 'buffer' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('idempotency_keys_created').on(t.createdAt)],
);
