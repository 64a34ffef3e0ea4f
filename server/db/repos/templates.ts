import { count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { contractTemplates } from '../schema';

export type TemplateRow = typeof contractTemplates.$inferSelect;
export type NewTemplate = Omit<typeof contractTemplates.$inferInsert, 'id'>;
export type TemplateChanges = Partial<Omit<NewTemplate, 'createdAt' | 'createdBy'>>;

const NEWEST_FIRST: SortKey<TemplateRow>[] = [
  { column: contractTemplates.id, isDescending: true, valueOf: (row) => row.id },
];

export function createTemplateRepo(db: Db) {
  const byId = db
    .select()
    .from(contractTemplates)
    .where(eq(contractTemplates.id, sql.placeholder('id')))
    .prepare();

  return {
    findById: (id: number): TemplateRow | undefined => byId.get({ id }),
    insert: (row: NewTemplate): TemplateRow => db.insert(contractTemplates).values(row).returning().get(),
    update: (id: number, changes: TemplateChanges): TemplateRow | undefined =>
      db.update(contractTemplates).set(changes).where(eq(contractTemplates.id, id)).returning().get(),
    remove: (id: number): boolean => db.delete(contractTemplates).where(eq(contractTemplates.id, id)).run().changes > 0,
    count: (): number => db.select({ n: count() }).from(contractTemplates).get()?.n ?? 0,
    listPage: (request: KeysetRequest): KeysetPage<TemplateRow> =>
      fetchKeysetPage(NEWEST_FIRST, request, undefined, (where, orderBy, limit) =>
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
