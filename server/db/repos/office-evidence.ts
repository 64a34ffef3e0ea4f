import { asc, desc } from 'drizzle-orm';
import type { Db } from '../open-database';
import { anchorHeads, officeAnchors, officeLog } from '../schema';

export type OfficeLogRow = typeof officeLog.$inferSelect;
export type NewOfficeLogRow = Omit<typeof officeLog.$inferInsert, 'id'>;
export type AnchorRow = typeof officeAnchors.$inferSelect;
export type NewAnchorRow = Omit<typeof officeAnchors.$inferInsert, 'id'>;
/** A chain's head as an anchor folds it. */
export type FoldedHead = { chain: string; sequence: number; hash: string };

/** The office log and the office anchors (server/evidence/anchors). */
export function createOfficeEvidenceRepo(db: Db) {
  const sqlite = db.$client;
  const officeHead = sqlite.prepare<[], { id: number; sequence: number; hash: string }>(
    'SELECT id, sequence, hash FROM office_log ORDER BY sequence DESC LIMIT 1',
  );
  const maxActivityId = sqlite.prepare<[], { id: number | null }>('SELECT max(id) AS id FROM activity_log');
  // The head of every contract chain with an entry after `afterId`: its highest chained entry.
  const changedHeads = sqlite.prepare<[number, number], { contractId: number; sequence: number; hash: string }>(
    `SELECT a.contract_id AS contractId, a.sequence, a.hash FROM activity_log a
     JOIN (SELECT contract_id, max(sequence) AS sequence FROM activity_log
           WHERE contract_id IN (SELECT DISTINCT contract_id FROM activity_log WHERE id > ? AND id <= ?)
             AND sequence IS NOT NULL GROUP BY contract_id) h
       ON h.contract_id = a.contract_id AND h.sequence = a.sequence
     ORDER BY a.contract_id`,
  );
  const latestAnchor = db.select().from(officeAnchors).orderBy(desc(officeAnchors.sequence)).limit(1).prepare();
  return {
    officeHead: async (): Promise<{ id: number; sequence: number; hash: string } | undefined> => officeHead.get(),
    insertOfficeEntry: async (row: NewOfficeLogRow): Promise<void> => {
      db.insert(officeLog).values(row).run();
    },
    listOfficeLog: async (): Promise<OfficeLogRow[]> =>
      db.select().from(officeLog).orderBy(asc(officeLog.sequence)).all(),
    maxActivityId: async (): Promise<number> => maxActivityId.get()?.id ?? 0,
    changedContractHeads: async (afterId: number, throughId: number) => changedHeads.all(afterId, throughId),
    latestAnchor: async (): Promise<AnchorRow | undefined> => latestAnchor.get(),
    insertAnchor: async (row: NewAnchorRow, heads: readonly FoldedHead[]): Promise<number> => {
      const { id } = db.insert(officeAnchors).values(row).returning({ id: officeAnchors.id }).get();
      for (const head of heads)
        db.insert(anchorHeads)
          .values({ anchorId: id, ...head })
          .run();
      return id;
    },
    listAnchors: async (): Promise<AnchorRow[]> =>
      db.select().from(officeAnchors).orderBy(asc(officeAnchors.sequence)).all(),
    /** Every folded head, by anchor id. */
    listAnchorHeads: async (): Promise<Map<number, FoldedHead[]>> => {
      const byAnchor = new Map<number, FoldedHead[]>();
      for (const row of db.select().from(anchorHeads).all()) {
        const list = byAnchor.get(row.anchorId) ?? [];
        list.push({ chain: row.chain, sequence: row.sequence, hash: row.hash });
        byAnchor.set(row.anchorId, list);
      }
      return byAnchor;
    },
  };
}

export type OfficeEvidenceRepo = ReturnType<typeof createOfficeEvidenceRepo>;
