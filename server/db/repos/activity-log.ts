import { count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { activityLog } from '../schema';

export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = Omit<typeof activityLog.$inferInsert, 'id'>;

const NEWEST_FIRST: SortKey<ActivityRow>[] = [{ column: activityLog.id, isDescending: true, valueOf: (row) => row.id }];

export function createActivityRepo(db: Db) {
  const insert = db
    .insert(activityLog)
    .values({
      contractId: sql.placeholder('contractId'),
      event: sql.placeholder('event'),
      subject: sql.placeholder('subject'),
      userId: sql.placeholder('userId'),
      partyId: sql.placeholder('partyId'),
      detail: sql.placeholder('detail'),
      userAgent: sql.placeholder('userAgent'),
      ipAddress: sql.placeholder('ipAddress'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare();
  const countIn = db
    .select({ n: count() })
    .from(activityLog)
    .where(eq(activityLog.contractId, sql.placeholder('contractId')))
    .prepare();

  return {
    insert: (row: Required<NewActivity>): void => {
      insert.run(row);
    },
    countInContract: (contractId: number): number => countIn.get({ contractId })?.n ?? 0,
    listPage: (contractId: number, request: KeysetRequest): KeysetPage<ActivityRow> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(activityLog.contractId, contractId), (where, orderBy, limit) =>
        db
          .select()
          .from(activityLog)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>;
