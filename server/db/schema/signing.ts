import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { parties } from './contracts';

/**
 * The one-time code of a party whose contract requires EMAIL_CODE or SMS_CODE: only its hash
 * is kept, with its expiry, the wrong guesses made against it and the sends in the last hour.
 */
export const partyCodes = sqliteTable('party_codes', {
  partyId: integer('party_id')
    .primaryKey()
    .references(() => parties.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  expiresAt: integer('expires_at').notNull(),
  failedAttempts: integer('failed_attempts').notNull().default(0),
  sentAt: integer('sent_at').notNull(),
  /** Sends in the hour that began at `window_started_at`, to bound how often codes go out. */
  sendsInWindow: integer('sends_in_window').notNull().default(1),
  windowStartedAt: integer('window_started_at').notNull(),
});
