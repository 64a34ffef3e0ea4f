import { eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { bulkSendRows, bulkSends } from '../schema';

export type BulkSendRow = typeof bulkSends.$inferSelect;
export type BulkRowRow = typeof bulkSendRows.$inferSelect;

const NEWEST_FIRST: SortKey<BulkSendRow>[] = [{ column: bulkSends.id, isDescending: true, valueOf: (row) => row.id }];

export function createBulkSendRepo(db: Db) {
  return {
    insert: async (row: Omit<BulkSendRow, 'id'>): Promise<BulkSendRow> =>
      db.insert(bulkSends).values(row).returning().get(),
    insertRow: async (row: Omit<BulkRowRow, 'id'>): Promise<BulkRowRow> =>
      db.insert(bulkSendRows).values(row).returning().get(),
    findById: async (id: number): Promise<BulkSendRow | undefined> =>
      db.select().from(bulkSends).where(eq(bulkSends.id, id)).get(),
    findRow: async (id: number): Promise<BulkRowRow | undefined> =>
      db.select().from(bulkSendRows).where(eq(bulkSendRows.id, id)).get(),
    rowsOf: async (bulkSendId: number): Promise<BulkRowRow[]> =>
      db.select().from(bulkSendRows).where(eq(bulkSendRows.bulkSendId, bulkSendId)).orderBy(bulkSendRows.id).all(),
    updateRow: async (id: number, changes: Partial<Omit<BulkRowRow, 'id' | 'bulkSendId'>>): Promise<void> => {
      db.update(bulkSendRows).set(changes).where(eq(bulkSendRows.id, id)).run();
    },
    count: async (userId: number | undefined): Promise<number> =>
      db
        .select({ n: sql<number>`count(*)` })
        .from(bulkSends)
        .where(userId === undefined ? undefined : eq(bulkSends.createdBy, userId))
        .get()?.n ?? 0,
    /** Newest first; an ordinary user's own batches only (`userId`). */
    listPage: async (request: KeysetRequest, userId: number | undefined): Promise<KeysetPage<BulkSendRow>> =>
      fetchKeysetPage(
        NEWEST_FIRST,
        request,
        userId === undefined ? undefined : eq(bulkSends.createdBy, userId),
        (where, orderBy, limit) =>
          db
            .select()
            .from(bulkSends)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit)
            .all(),
      ),
  };
}

export type BulkSendRepo = ReturnType<typeof createBulkSendRepo>;
