import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The office's keys on PostgreSQL (server/crypto/key-store.ts): one row per key, its value
 * sealed with the master key the instances are given (server/crypto/master-key.ts), so that
 * every instance reads the same keys and the database alone opens none. On SQLite the keys are
 * the files of DATA_DIR/keys and this table stays empty.
 */
export const sealedKeys = sqliteTable('sealed_keys', {
  /** The key's name (`app-secret`, `seal-certificates/<sha256>.pem`). */
  name: text('name').primaryKey(),
  /** Format byte, nonce, ciphertext and tag (XChaCha20-Poly1305, the name as associated data). */
  sealed: blob('sealed', { mode: 'buffer' }).notNull(),
  updatedAt: integer('updated_at').notNull(),
});
