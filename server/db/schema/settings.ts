import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * Settings changed in the admin UI, one row per key. A key without a row takes its default
 * (usually the environment's value).
 */
export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
