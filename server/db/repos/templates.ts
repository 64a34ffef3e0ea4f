import { count, eq, or, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import { createPreparedInsert } from '../prepared-insert';
import type { Store } from '../store';
import type { contractTemplates } from '../schema';

export type TemplateRow = typeof contractTemplates.$inferSelect;
export type NewTemplate = Omit<typeof contractTemplates.$inferInsert, 'id'>;
export type TemplateChanges = Partial<Omit<NewTemplate, 'createdAt' | 'createdBy'>>;

export function createTemplateRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<TemplateRow>[] = [
    { column: t.contractTemplates.id, isDescending: true, valueOf: (row) => row.id },
  ];
  /** policies/templates.ts's maySeeTemplate in SQL: published, or made by the scope's user (templateListScope). */
  const visibleWhere = (userId: number | undefined): SQL | undefined =>
    userId === undefined
      ? undefined
      : or(eq(t.contractTemplates.isPublished, true), eq(t.contractTemplates.createdBy, userId));
  const byId = x.prepare<TemplateRow>((o, t) =>
    o
      .select()
      .from(t.contractTemplates)
      .where(eq(t.contractTemplates.id, sql.placeholder('id'))),
  );
  const insert = createPreparedInsert(x, t.contractTemplates);

  return {
    findById: async (id: number): Promise<TemplateRow | undefined> => byId.get({ id }),
    insert: async (row: Omit<Required<NewTemplate>, 'pdfFileId' | 'pageSizes'>): Promise<TemplateRow> => insert(row),
    update: async (id: number, changes: TemplateChanges): Promise<TemplateRow | undefined> =>
      x.get(orm.update(t.contractTemplates).set(changes).where(eq(t.contractTemplates.id, id)).returning()),
    remove: async (id: number): Promise<boolean> =>
      (await x.run(orm.delete(t.contractTemplates).where(eq(t.contractTemplates.id, id)))).changes > 0,
    /** Every template, or (with `visibleTo`) the published ones and that user's own. */
    count: async (visibleTo?: number): Promise<number> =>
      (await x.get<{ n: number }>(orm.select({ n: count() }).from(t.contractTemplates).where(visibleWhere(visibleTo))))
        ?.n ?? 0,
    listPage: async (request: KeysetRequest, visibleTo?: number): Promise<KeysetPage<TemplateRow>> =>
      fetchKeysetPage(newestFirst, request, visibleWhere(visibleTo), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.contractTemplates)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type TemplateRepo = ReturnType<typeof createTemplateRepo>;
