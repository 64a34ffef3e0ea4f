import { and, count, eq, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { annotationFiles, annotations } from '../schema';

export type AnnotationRow = typeof annotations.$inferSelect;
export type NewAnnotation = Omit<typeof annotations.$inferInsert, 'id'>;
export type AnnotationChanges = Partial<Omit<NewAnnotation, 'contractId' | 'createdAt' | 'createdBy'>>;

const NEWEST_FIRST: SortKey<AnnotationRow>[] = [
  { column: annotations.id, isDescending: true, valueOf: (row) => row.id },
];

export function createAnnotationRepo(db: Db) {
  const inContract = db
    .select()
    .from(annotations)
    .where(and(eq(annotations.contractId, sql.placeholder('contractId')), eq(annotations.id, sql.placeholder('id'))))
    .prepare();
  const countIn = db
    .select({ n: count() })
    .from(annotations)
    .where(eq(annotations.contractId, sql.placeholder('contractId')))
    .prepare();

  return {
    findInContract: async (contractId: number, id: number): Promise<AnnotationRow | undefined> =>
      inContract.get({ contractId, id }),
    insert: async (row: NewAnnotation): Promise<AnnotationRow> => db.insert(annotations).values(row).returning().get(),
    update: async (id: number, changes: AnnotationChanges): Promise<AnnotationRow | undefined> =>
      db.update(annotations).set(changes).where(eq(annotations.id, id)).returning().get(),
    remove: async (id: number): Promise<boolean> =>
      db.delete(annotations).where(eq(annotations.id, id)).run().changes > 0,
    /** Keeps the file a party attached to an ATTACHMENT field (in the transaction of its answer). */
    saveFile: async (annotationId: number, fileId: number): Promise<void> => {
      db.insert(annotationFiles)
        .values({ annotationId, fileId })
        .onConflictDoUpdate({ target: annotationFiles.annotationId, set: { fileId } })
        .run();
    },
    /** The stored file of an ATTACHMENT field's answer. */
    fileIdOf: async (annotationId: number): Promise<number | undefined> =>
      db
        .select({ fileId: annotationFiles.fileId })
        .from(annotationFiles)
        .where(eq(annotationFiles.annotationId, annotationId))
        .get()?.fileId,
    countInContract: async (contractId: number): Promise<number> => countIn.get({ contractId })?.n ?? 0,
    listInContract: async (contractId: number): Promise<AnnotationRow[]> =>
      db.select().from(annotations).where(eq(annotations.contractId, contractId)).orderBy(annotations.id).all(),
    listOfParty: async (partyId: number): Promise<AnnotationRow[]> =>
      db.select().from(annotations).where(eq(annotations.partyId, partyId)).orderBy(annotations.id).all(),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<AnnotationRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(annotations.contractId, contractId), (where, orderBy, limit) =>
        db
          .select()
          .from(annotations)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
  };
}

export type AnnotationRepo = ReturnType<typeof createAnnotationRepo>;
