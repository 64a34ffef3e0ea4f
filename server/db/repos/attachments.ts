import { and, count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { attachments } from '../schema';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = Omit<typeof attachments.$inferInsert, 'id'>;

const NEWEST_FIRST: SortKey<AttachmentRow>[] = [
  { column: attachments.id, isDescending: true, valueOf: (row) => row.id },
];

export function createAttachmentRepo(db: Db) {
  const inContract = db
    .select()
    .from(attachments)
    .where(and(eq(attachments.contractId, sql.placeholder('contractId')), eq(attachments.id, sql.placeholder('id'))))
    .prepare();
  const countIn = db
    .select({ n: count() })
    .from(attachments)
    .where(eq(attachments.contractId, sql.placeholder('contractId')))
    .prepare();

  return {
    findInContract: async (contractId: number, id: number): Promise<AttachmentRow | undefined> =>
      inContract.get({ contractId, id }),
    insert: async (row: NewAttachment): Promise<AttachmentRow> => db.insert(attachments).values(row).returning().get(),
    remove: async (id: number): Promise<boolean> =>
      db.delete(attachments).where(eq(attachments.id, id)).run().changes > 0,
    countInContract: async (contractId: number): Promise<number> => countIn.get({ contractId })?.n ?? 0,
    listInContract: async (contractId: number): Promise<AttachmentRow[]> =>
      db.select().from(attachments).where(eq(attachments.contractId, contractId)).orderBy(attachments.id).all(),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<AttachmentRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(attachments.contractId, contractId), (where, orderBy, limit) =>
        db
          .select()
          .from(attachments)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type AttachmentRepo = ReturnType<typeof createAttachmentRepo>;
