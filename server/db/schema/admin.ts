import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';

/**
 * Signed-in admin UI sessions. Only the SHA-256 of the session id is kept, so a copy of the
 * database (a backup) cannot be replayed as a cookie.
 */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    idHash: text('id_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    lastSeenAt: integer('last_seen_at').notNull(),
    /** The absolute end; the idle end is last_seen_at + the idle limit. */
    expiresAt: integer('expires_at').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
  },
  (t) => [uniqueIndex('admin_sessions_id_hash').on(t.idHash), index('admin_sessions_user').on(t.userId)],
);
