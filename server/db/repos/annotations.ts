import { and, count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { annotations } from '../schema';

export type AnnotationRow = typeof annotations.$inferSelect;
export type NewAnnotation = Omit<typeof annotations.$inferInsert, 'id'>;
export type AnnotationChanges = Partial<Omit<NewAnnotation, 'contractId' | 'createdAt' | 'createdBy'>>;

export function createAnnotationRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<AnnotationRow>[] = [
    { column: t.annotations.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const inContract = x.prepare<AnnotationRow>((o, t) =>
    o
      .select()
      .from(t.annotations)
      .where(
        and(eq(t.annotations.contractId, sql.placeholder('contractId')), eq(t.annotations.id, sql.placeholder('id'))),
      ),
  );
  const countIn = x.prepare<{ n: number }>((o, t) =>
    o
      .select({ n: count() })
      .from(t.annotations)
      .where(eq(t.annotations.contractId, sql.placeholder('contractId'))),
  );

  return {
    findInContract: async (contractId: number, id: number): Promise<AnnotationRow | undefined> =>
      inContract.get({ contractId, id }),
    insert: async (row: NewAnnotation): Promise<AnnotationRow> =>
      (await x.get<AnnotationRow>(orm.insert(t.annotations).values(row).returning()))!,
    update: async (id: number, changes: AnnotationChanges): Promise<AnnotationRow | undefined> =>
      x.get(orm.update(t.annotations).set(changes).where(eq(t.annotations.id, id)).returning()),
    remove: async (id: number): Promise<boolean> =>
      (await x.run(orm.delete(t.annotations).where(eq(t.annotations.id, id)))).changes > 0,
    /** Keeps the file a party attached to an ATTACHMENT field (in the transaction of its answer). */
    saveFile: async (annotationId: number, fileId: number): Promise<void> => {
      await x.run(
        orm
          .insert(t.annotationFiles)
          .values({ annotationId, fileId })
          .onConflictDoUpdate({ target: t.annotationFiles.annotationId, set: { fileId } }),
      );
    },
    /** The stored file of an ATTACHMENT field's answer. */
    fileIdOf: async (annotationId: number): Promise<number | undefined> =>
      (
        await x.get<{ fileId: number }>(
          orm
            .select({ fileId: t.annotationFiles.fileId })
            .from(t.annotationFiles)
            .where(eq(t.annotationFiles.annotationId, annotationId)),
        )
      )?.fileId,
    countInContract: async (contractId: number): Promise<number> => (await countIn.get({ contractId }))?.n ?? 0,
    listInContract: async (contractId: number): Promise<AnnotationRow[]> =>
      x.all(orm.select().from(t.annotations).where(eq(t.annotations.contractId, contractId)).orderBy(t.annotations.id)),
    listOfParty: async (partyId: number): Promise<AnnotationRow[]> =>
      x.all(orm.select().from(t.annotations).where(eq(t.annotations.partyId, partyId)).orderBy(t.annotations.id)),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<AnnotationRow>> =>
      fetchKeysetPage(newestFirst, request, eq(t.annotations.contractId, contractId), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.annotations)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
  };
}

export type AnnotationRepo = ReturnType<typeof createAnnotationRepo>;
