import { and, count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { attachments } from '../schema';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = Omit<typeof attachments.$inferInsert, 'id'>;

export function createAttachmentRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<AttachmentRow>[] = [
    { column: t.attachments.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const inContract = x.prepare<AttachmentRow>((o, t) =>
    o
      .select()
      .from(t.attachments)
      .where(
        and(eq(t.attachments.contractId, sql.placeholder('contractId')), eq(t.attachments.id, sql.placeholder('id'))),
      ),
  );
  const countIn = x.prepare<{ n: number }>((o, t) =>
    o
      .select({ n: count() })
      .from(t.attachments)
      .where(eq(t.attachments.contractId, sql.placeholder('contractId'))),
  );

  return {
    findInContract: async (contractId: number, id: number): Promise<AttachmentRow | undefined> =>
      inContract.get({ contractId, id }),
    insert: async (row: NewAttachment): Promise<AttachmentRow> =>
      (await x.get<AttachmentRow>(orm.insert(t.attachments).values(row).returning()))!,
    remove: async (id: number): Promise<boolean> =>
      (await x.run(orm.delete(t.attachments).where(eq(t.attachments.id, id)))).changes > 0,
    countInContract: async (contractId: number): Promise<number> => (await countIn.get({ contractId }))?.n ?? 0,
    listInContract: async (contractId: number): Promise<AttachmentRow[]> =>
      x.all(orm.select().from(t.attachments).where(eq(t.attachments.contractId, contractId)).orderBy(t.attachments.id)),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<AttachmentRow>> =>
      fetchKeysetPage(newestFirst, request, eq(t.attachments.contractId, contractId), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.attachments)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type AttachmentRepo = ReturnType<typeof createAttachmentRepo>;
