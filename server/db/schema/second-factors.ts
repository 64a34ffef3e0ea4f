import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';

/**
 * A user's authenticator app (TOTP, RFC 6238). The shared secret is sealed with the app secret
 * (a copy of the database alone cannot make codes); the row counts only once confirmed with a
 * code. `last_step` is the time step of the last code taken, so no code is taken twice.
 */
export const userTotp = sqliteTable('user_totp', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: integer('confirmed_at'),
  lastStep: integer('last_step'),
  createdAt: integer('created_at').notNull(),
});

/** One-time recovery codes, as keyed hashes only: each opens one sign-in, once. */
export const userRecoveryCodes = sqliteTable(
  'user_recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('user_recovery_codes_user').on(t.userId)],
);
