import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './accounts';
import { contracts } from './contracts';
import { contractTemplates } from './templates';

/** What every placed field holds, whoever it is for: its box, type and settings. */
const fieldColumns = () => ({
  /** 1 = the first party added to a contract made from the template. */
  role: integer('role').notNull(),
  pdfPage: integer('pdf_page').notNull(),
  posX: real('pos_x').notNull(),
  posY: real('pos_y').notNull(),
  width: real('width').notNull(),
  height: real('height').notNull(),
  type: text('type').notNull(),
  content: text('content').notNull().default(''),
  /** What the field asks and a line of help, shown to the party. */
  label: text('label').notNull().default(''),
  hint: text('hint').notNull().default(''),
  /** JSON array of the choices of a DROPDOWN or RADIO field; null for other types. */
  options: text('options'),
  inputRequired: integer('input_required', { mode: 'boolean' }).notNull().default(true),
  renderWhenSigned: integer('render_when_signed', { mode: 'boolean' }).notNull().default(true),
  /** JSON box of the text tag the field was made from (see annotations.tag_box). */
  tagBox: text('tag_box'),
});

/** The fields of a PDF template, each for a role (Party 1, Party 2, …). */
export const templateFields = sqliteTable(
  'template_fields',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    templateId: integer('template_id')
      .notNull()
      .references(() => contractTemplates.id, { onDelete: 'cascade' }),
    ...fieldColumns(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('template_fields_template').on(t.templateId, t.id)],
);

/**
 * Fields a contract copied from its PDF template whose role has no party yet: the next party
 * added takes the lowest waiting role's fields as its annotations.
 */
export const contractRoleFields = sqliteTable(
  'contract_role_fields',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    contractId: integer('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    ...fieldColumns(),
  },
  (t) => [index('contract_role_fields_contract').on(t.contractId, t.role)],
);
