import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { contracts } from './contracts';
import { contractTemplates } from './templates';

/** A bulk send: one contract per CSV row, made from a PDF template and sent. */
export const bulkSends = sqliteTable(
  'bulk_sends',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    templateId: integer('template_id').references(() => contractTemplates.id, { onDelete: 'set null' }),
    /** The template's name when the batch was made (the template may go later). */
    templateName: text('template_name').notNull(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('bulk_sends_user').on(t.createdBy, t.id)],
);

/**
 * One row of a bulk send: its parties (JSON), and what became of it. A pending row has a job
 * on the `bulk-send` queue; making and sending its contract and marking it sent is one
 * transaction, so a crash loses no row and sends none twice.
 */
export const bulkSendRows = sqliteTable(
  'bulk_send_rows',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    bulkSendId: integer('bulk_send_id')
      .notNull()
      .references(() => bulkSends.id, { onDelete: 'cascade' }),
    /** The row's line in the CSV file (the header is line 1). */
    line: integer('line').notNull(),
    contractName: text('contract_name').notNull(),
    /** JSON `[{name, email, mobile_phone}]`, one per role in order. */
    parties: text('parties').notNull(),
    /** pending | sent | failed */
    state: text('state').notNull(),
    error: text('error'),
    contractId: integer('contract_id').references(() => contracts.id, { onDelete: 'set null' }),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('bulk_send_rows_batch').on(t.bulkSendId, t.id)],
);
