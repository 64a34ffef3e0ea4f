import { count, eq, or, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { contractTemplates } from '../schema';

export type TemplateRow = typeof contractTemplates.$inferSelect;
export type NewTemplate = Omit<typeof contractTemplates.$inferInsert, 'id'>;
export type TemplateChanges = Partial<Omit<NewTemplate, 'createdAt' | 'createdBy'>>;

const NEWEST_FIRST: SortKey<TemplateRow>[] = [
  { column: contractTemplates.id, isDescending: true, valueOf: (row) => row.id },
];

/** policies/templates.ts's maySeeTemplate in SQL: published, or made by the scope's user (templateListScope). */
const visibleWhere = (userId: number | undefined): SQL | undefined =>
  userId === undefined
    ? undefined
    : or(eq(contractTemplates.isPublished, true), eq(contractTemplates.createdBy, userId));

export function createTemplateRepo(db: Db) {
  const byId = db
    .select()
    .from(contractTemplates)
    .where(eq(contractTemplates.id, sql.placeholder('id')))
    .prepare();

  const insert = db
    .insert(contractTemplates)
    .values({
      name: sql.placeholder('name'),
      isPublished: sql.placeholder('isPublished'),
      header: sql.placeholder('header'),
      content: sql.placeholder('content'),
      footer: sql.placeholder('footer'),
      footerType: sql.placeholder('footerType'),
      roleNames: sql.placeholder('roleNames'),
      createdBy: sql.placeholder('createdBy'),
      createdAt: sql.placeholder('createdAt'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning()
    .prepare();

  return {
    findById: async (id: number): Promise<TemplateRow | undefined> => byId.get({ id }),
    insert: async (row: Omit<Required<NewTemplate>, 'pdfFileId' | 'pageSizes'>): Promise<TemplateRow> =>
      insert.get({ ...row, isPublished: row.isPublished ? 1 : 0 }) as TemplateRow,
    update: async (id: number, changes: TemplateChanges): Promise<TemplateRow | undefined> =>
      db.update(contractTemplates).set(changes).where(eq(contractTemplates.id, id)).returning().get(),
    remove: async (id: number): Promise<boolean> =>
      db.delete(contractTemplates).where(eq(contractTemplates.id, id)).run().changes > 0,
    /** Every template, or (with `visibleTo`) the published ones and that user's own. */
    count: async (visibleTo?: number): Promise<number> =>
      db.select({ n: count() }).from(contractTemplates).where(visibleWhere(visibleTo)).get()?.n ?? 0,
    listPage: async (request: KeysetRequest, visibleTo?: number): Promise<KeysetPage<TemplateRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, visibleWhere(visibleTo), (where, orderBy, limit) =>
        db
          .select()
          .from(contractTemplates)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type TemplateRepo = ReturnType<typeof createTemplateRepo>;
