import { eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { bulkSendRows, bulkSends } from '../schema';

export type BulkSendRow = typeof bulkSends.$inferSelect;
export type BulkRowRow = typeof bulkSendRows.$inferSelect;

export function createBulkSendRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<BulkSendRow>[] = [
    { column: t.bulkSends.id, isDescending: true, valueOf: (row) => row.id },
  ];
  return {
    insert: async (row: Omit<BulkSendRow, 'id'>): Promise<BulkSendRow> =>
      (await x.get<BulkSendRow>(orm.insert(t.bulkSends).values(row).returning()))!,
    insertRow: async (row: Omit<BulkRowRow, 'id'>): Promise<BulkRowRow> =>
      (await x.get<BulkRowRow>(orm.insert(t.bulkSendRows).values(row).returning()))!,
    findById: async (id: number): Promise<BulkSendRow | undefined> =>
      x.get(orm.select().from(t.bulkSends).where(eq(t.bulkSends.id, id))),
    findRow: async (id: number): Promise<BulkRowRow | undefined> =>
      x.get(orm.select().from(t.bulkSendRows).where(eq(t.bulkSendRows.id, id))),
    rowsOf: async (bulkSendId: number): Promise<BulkRowRow[]> =>
      x.all(
        orm.select().from(t.bulkSendRows).where(eq(t.bulkSendRows.bulkSendId, bulkSendId)).orderBy(t.bulkSendRows.id),
      ),
    updateRow: async (id: number, changes: Partial<Omit<BulkRowRow, 'id' | 'bulkSendId'>>): Promise<void> => {
      await x.run(orm.update(t.bulkSendRows).set(changes).where(eq(t.bulkSendRows.id, id)));
    },
    count: async (userId: number | undefined): Promise<number> =>
      (
        await x.get<{ n: number }>(
          orm
            .select({ n: sql<number>`count(*)` })
            .from(t.bulkSends)
            .where(userId === undefined ? undefined : eq(t.bulkSends.createdBy, userId)),
        )
      )?.n ?? 0,
    /** Newest first; an ordinary user's own batches only (`userId`). */
    listPage: async (request: KeysetRequest, userId: number | undefined): Promise<KeysetPage<BulkSendRow>> =>
      fetchKeysetPage(
        newestFirst,
        request,
        userId === undefined ? undefined : eq(t.bulkSends.createdBy, userId),
        (where, orderBy, limit) =>
          x.all(
            orm
              .select()
              .from(t.bulkSends)
              .where(where)
              .orderBy(...orderBy)
              .limit(limit),
          ),
      ),
  };
}

export type BulkSendRepo = ReturnType<typeof createBulkSendRepo>;
