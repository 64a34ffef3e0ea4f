import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { storedFiles } from './contracts';

export const contractTemplates = sqliteTable('contract_templates', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  isPublished: integer('is_published', { mode: 'boolean' }).notNull().default(false),
  header: text('header').notNull().default(''),
  content: text('content').notNull().default(''),
  footer: text('footer').notNull().default(''),
  footerType: text('footer_type').notNull().default('SIMPLE'),
  /** A PDF template's own PDF (its fields in template_fields); null for a text template. */
  pdfFileId: integer('pdf_file_id').references(() => storedFiles.id),
  /** JSON `[[width, height], …]` of the PDF's pages as displayed, like contracts.page_sizes. */
  pageSizes: text('page_sizes'),
  /** JSON array of the roles' names: the first names role 1 ("Landlord"); "" or missing leaves a role unnamed. */
  roleNames: text('role_names').notNull().default('[]'),
  createdBy: integer('created_by')
    .notNull()
    .references(() => users.id),
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
});
