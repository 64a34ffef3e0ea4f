import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';

export const contractTemplates = sqliteTable('contract_templates', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  isPublished: integer('is_published', { mode: 'boolean' }).notNull().default(false),
  header: text('header').notNull().default(''),
  content: text('content').notNull().default(''),
  footer: text('footer').notNull().default(''),
  footerType: text('footer_type').notNull().default('SIMPLE'),
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
