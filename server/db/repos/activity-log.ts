import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Store } from '../store';
import type { activityLog } from '../schema';

export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = Omit<typeof activityLog.$inferInsert, 'id'>;
/** A row as written since the chain exists: every chain column set. */
export type ChainedActivity = Required<NewActivity> & { sequence: number; previousHash: string; hash: string };

/**
 * A contract's activity log, hash chained. An entry is appended in the transaction of the
 * change it records, after reading the chain's head in that same transaction: SQLite's one
 * writer, and PostgreSQL's write lock taken by every write transaction (pg-database.ts), make
 * that head the head, so a chain never forks.
 */
export function createActivityRepo(x: Store) {
  const { orm, t } = x;
  const newestFirst: SortKey<ActivityRow>[] = [
    { column: t.activityLog.id, isDescending: true, valueOf: (row) => row.id },
  ];
  const insert = x.prepare((o, t) =>
    o.insert(t.activityLog).values({
      contractId: sql.placeholder('contractId'),
      event: sql.placeholder('event'),
      subject: sql.placeholder('subject'),
      userId: sql.placeholder('userId'),
      partyId: sql.placeholder('partyId'),
      userAgent: sql.placeholder('userAgent'),
      ipAddress: sql.placeholder('ipAddress'),
      createdAt: sql.placeholder('createdAt'),
      sequence: sql.placeholder('sequence'),
      details: sql.placeholder('details'),
      previousHash: sql.placeholder('previousHash'),
      hash: sql.placeholder('hash'),
    }),
  );
  const countIn = x.prepare<{ n: number }>((o, t) =>
    o
      .select({ n: count() })
      .from(t.activityLog)
      .where(eq(t.activityLog.contractId, sql.placeholder('contractId'))),
  );
  // The unique (contract_id, sequence) index answers this with one seek.
  const head = x.sql<{ sequence: number; hash: string }>(
    'SELECT sequence, hash FROM activity_log WHERE contract_id = ? AND sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
  );
  // The (contract_id, id) index answers this with one seek too.
  const newest = x.sql<Pick<ActivityRow, 'event' | 'partyId' | 'details'>>(
    'SELECT event, party_id AS "partyId", details FROM activity_log WHERE contract_id = ? ORDER BY id DESC LIMIT 1',
  );
  const setChain = x.sql('UPDATE activity_log SET sequence = ?, previous_hash = ?, hash = ? WHERE id = ?');

  return {
    insert: async (row: ChainedActivity): Promise<void> => {
      await insert.run(row);
    },
    /** The contract's last chained entry. */
    head: async (contractId: number): Promise<{ sequence: number; hash: string } | undefined> => head.get([contractId]),
    /** What the contract's newest entry says: its event, acting party and details (JSON). */
    newest: async (contractId: number): Promise<Pick<ActivityRow, 'event' | 'partyId' | 'details'> | undefined> =>
      newest.get([contractId]),
    countInContract: async (contractId: number): Promise<number> => (await countIn.get({ contractId }))?.n ?? 0,
    /** Every entry of a contract in chain order (oldest first). */
    listChain: async (contractId: number): Promise<ActivityRow[]> =>
      x.all(
        orm
          .select()
          .from(t.activityLog)
          .where(eq(t.activityLog.contractId, contractId))
          .orderBy(asc(t.activityLog.sequence), asc(t.activityLog.id)),
      ),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<ActivityRow>> =>
      fetchKeysetPage(newestFirst, request, eq(t.activityLog.contractId, contractId), (where, orderBy, limit) =>
        x.all(
          orm
            .select()
            .from(t.activityLog)
            .where(where)
            .orderBy(...orderBy)
            .limit(limit),
        ),
      ),
    /** Contracts holding entries written before the chain existed (the partial index makes this a seek). */
    contractsWithUnchained: async (): Promise<number[]> =>
      (
        await x.all<{ contractId: number }>(
          orm
            .selectDistinct({ contractId: t.activityLog.contractId })
            .from(t.activityLog)
            .where(isNull(t.activityLog.hash))
            .orderBy(asc(t.activityLog.contractId)),
        )
      ).map((row) => row.contractId),
    unchainedOf: async (contractId: number): Promise<ActivityRow[]> =>
      x.all(
        orm
          .select()
          .from(t.activityLog)
          .where(and(eq(t.activityLog.contractId, contractId), isNull(t.activityLog.hash)))
          .orderBy(asc(t.activityLog.id)),
      ),
    setChain: async (id: number, sequence: number, previousHash: string, hash: string): Promise<void> => {
      await setChain.run([sequence, previousHash, hash, id]);
    },
  };
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>;
