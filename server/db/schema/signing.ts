import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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

/**
 * The mark a party signed with, stamped into its SIGNATURE and INITIALS boxes and shown on the
 * audit trail: its name typed in a script face, or a drawn or uploaded picture (a PNG the server
 * decoded and re-encoded), with drawn initials when the party drew them.
 */
export const partyMarks = sqliteTable('party_marks', {
  partyId: integer('party_id')
    .primaryKey()
    .references(() => parties.id, { onDelete: 'cascade' }),
  /** typed | drawn | uploaded */
  kind: text('kind').notNull(),
  /** The script face of a typed mark (and of typed initials beside a drawn signature). */
  face: text('face').notNull(),
  signaturePng: blob('signature_png', { mode: 'buffer' }),
  initialsPng: blob('initials_png', { mode: 'buffer' }),
  createdAt: integer('created_at').notNull(),
});
