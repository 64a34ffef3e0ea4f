import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/** The office: the appliance's one customer (row id 1). */
export const office = sqliteTable('office', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().default(''),
  email: text('email').notNull().default(''),
  defaultRateLimit: integer('default_rate_limit').notNull().default(30),
  setUpAt: integer('set_up_at'),
  createdAt: integer('created_at').notNull(),
});

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    username: text('username').notNull(),
    email: text('email').notNull(),
    firstname: text('firstname').notNull().default(''),
    lastname: text('lastname').notNull().default(''),
    passwordHash: text('password_hash'),
    permissionTemplate: text('permission_template').notNull(),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: integer('created_at').notNull(),
    deletedAt: integer('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_username_live')
      .on(t.username)
      .where(sql`deleted_at IS NULL`),
  ],
);

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    publicId: text('public_id').notNull(),
    secretHash: text('secret_hash').notNull(),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    /** Requests per minute; null means the office's default. */
    rateLimit: integer('rate_limit'),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    lastUsedAt: integer('last_used_at'),
    revokedAt: integer('revoked_at'),
  },
  (t) => [uniqueIndex('api_tokens_public_id').on(t.publicId), index('api_tokens_owner').on(t.ownerUserId)],
);
