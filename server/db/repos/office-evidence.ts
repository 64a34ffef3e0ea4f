import { asc, desc, isNull } from 'drizzle-orm';
import type { Store } from '../store';
import type { anchorHeads, officeAnchors, officeLog } from '../schema';

export type OfficeLogRow = typeof officeLog.$inferSelect;
export type NewOfficeLogRow = Omit<typeof officeLog.$inferInsert, 'id'>;
export type AnchorRow = typeof officeAnchors.$inferSelect;
export type NewAnchorRow = Omit<typeof officeAnchors.$inferInsert, 'id'>;
/** A chain's head as an anchor folds it. */
export type FoldedHead = { chain: string; sequence: number; hash: string };

/**
 * The office log and the office anchors (server/evidence/anchors). The office log is a hash
 * chain: its head is read and the next entry written in the caller's transaction, which holds
 * SQLite's one writer or PostgreSQL's write lock (pg-database.ts), so the head read is the head.
 */
export function createOfficeEvidenceRepo(x: Store) {
  const { orm, t } = x;
  const officeHead = x.sql<{ id: number; sequence: number; hash: string }>(
    'SELECT id, sequence, hash FROM office_log ORDER BY sequence DESC LIMIT 1',
  );
  const maxActivityId = x.sql<{ id: number | null }>('SELECT max(id) AS id FROM activity_log');
  // The head of every contract chain with an entry after `afterId`: its highest chained entry.
  const changedHeads = x.sql<{ contractId: number; sequence: number; hash: string }>(
    `SELECT a.contract_id AS "contractId", a.sequence, a.hash FROM activity_log a
     JOIN (SELECT contract_id, max(sequence) AS sequence FROM activity_log
           WHERE contract_id IN (SELECT DISTINCT contract_id FROM activity_log WHERE id > ? AND id <= ?)
             AND sequence IS NOT NULL GROUP BY contract_id) h
       ON h.contract_id = a.contract_id AND h.sequence = a.sequence
     ORDER BY a.contract_id`,
  );
  // Every contract with the highest sequence its log holds (null: none), through the (contract, sequence) index.
  const contractHeads = x.sql<{ contractId: number; sequence: number | null }>(
    `SELECT c.id AS "contractId", (SELECT max(a.sequence) FROM activity_log a WHERE a.contract_id = c.id) AS sequence
     FROM contracts c`,
  );
  // An entry committed after the given ids but dated before `before` (an anchor's reading).
  const lateEntry = x.sql<{ n: number }>(
    `SELECT (SELECT count(*) FROM activity_log WHERE id > ? AND created_at < ?)
          + (SELECT count(*) FROM office_log WHERE id > ? AND created_at < ?) AS n`,
  );
  const latestAnchor = x.prepare<AnchorRow>((o, t) =>
    o.select().from(t.officeAnchors).orderBy(desc(t.officeAnchors.sequence)).limit(1),
  );
  return {
    officeHead: async (): Promise<{ id: number; sequence: number; hash: string } | undefined> => officeHead.get(),
    insertOfficeEntry: async (row: NewOfficeLogRow): Promise<void> => {
      await x.run(orm.insert(t.officeLog).values(row));
    },
    listOfficeLog: async (): Promise<OfficeLogRow[]> =>
      x.all(orm.select().from(t.officeLog).orderBy(asc(t.officeLog.sequence))),
    maxActivityId: async (): Promise<number> => (await maxActivityId.get())?.id ?? 0,
    changedContractHeads: async (afterId: number, throughId: number) => changedHeads.all([afterId, throughId]),
    latestAnchor: async (): Promise<AnchorRow | undefined> => latestAnchor.get(),
    /** Whether an entry written after the ids an anchor read up to is dated before its reading. */
    hasLateEntry: async (activityIdThrough: number, officeLogIdThrough: number, before: number): Promise<boolean> =>
      Number((await lateEntry.get([activityIdThrough, before, officeLogIdThrough, before]))?.n ?? 0) > 0,
    /** The anchor and the heads it folds; call inside a transaction. */
    insertAnchor: async (row: NewAnchorRow, heads: readonly FoldedHead[]): Promise<number> => {
      const { id } = (await x.get<{ id: number }>(
        orm.insert(t.officeAnchors).values(row).returning({ id: t.officeAnchors.id }),
      ))!;
      for (const head of heads) await x.run(orm.insert(t.anchorHeads).values({ anchorId: id, ...head }));
      return id;
    },
    /** What the office's check compares with the office log: each contract's log length, users' e-mails, consumers' keys. */
    contractLogLengths: async (): Promise<Map<number, number>> =>
      new Map((await contractHeads.all()).map((row) => [Number(row.contractId), Number(row.sequence ?? 0)])),
    liveUserEmails: async (): Promise<{ id: number; username: string; email: string }[]> =>
      x.all(
        orm
          .select({ id: t.users.id, username: t.users.username, email: t.users.email })
          .from(t.users)
          .where(isNull(t.users.deletedAt))
          .orderBy(asc(t.users.id)),
      ),
    webhookPublicKeys: async (): Promise<{ id: number; publicKey: Buffer }[]> =>
      x.all(
        orm
          .select({ id: t.webhookConsumers.id, publicKey: t.webhookConsumers.publicKey })
          .from(t.webhookConsumers)
          .orderBy(asc(t.webhookConsumers.id)),
      ),
    listAnchors: async (): Promise<AnchorRow[]> =>
      x.all(orm.select().from(t.officeAnchors).orderBy(asc(t.officeAnchors.sequence))),
    /** Every folded head, by anchor id. */
    listAnchorHeads: async (): Promise<Map<number, FoldedHead[]>> => {
      const byAnchor = new Map<number, FoldedHead[]>();
      const rows = await x.all<typeof anchorHeads.$inferSelect>(
        orm.select().from(t.anchorHeads).orderBy(asc(t.anchorHeads.anchorId), asc(t.anchorHeads.chain)),
      );
      for (const row of rows) {
        const list = byAnchor.get(row.anchorId) ?? [];
        list.push({ chain: row.chain, sequence: row.sequence, hash: row.hash });
        byAnchor.set(row.anchorId, list);
      }
      return byAnchor;
    },
  };
}

export type OfficeEvidenceRepo = ReturnType<typeof createOfficeEvidenceRepo>;
