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
    findInContract: (contractId: number, id: number): AttachmentRow | undefined => inContract.get({ contractId, id }),
    insert: (row: NewAttachment): AttachmentRow => db.insert(attachments).values(row).returning().get(),
    remove: (id: number): boolean => db.delete(attachments).where(eq(attachments.id, id)).run().changes > 0,
    countInContract: (contractId: number): number => countIn.get({ contractId })?.n ?? 0,
    listInContract: (contractId: number): AttachmentRow[] =>
      db.select().from(attachments).where(eq(attachments.contractId, contractId)).orderBy(attachments.id).all(),
    listPage: (contractId: number, request: KeysetRequest): KeysetPage<AttachmentRow> =>
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
