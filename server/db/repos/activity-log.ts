import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { activityLog } from '../schema';

export type ActivityRow = typeof activityLog.$inferSelect;
export type NewActivity = Omit<typeof activityLog.$inferInsert, 'id'>;
/** A row as written since the chain exists: every chain column set. */
export type ChainedActivity = Required<NewActivity> & { sequence: number; previousHash: string; hash: string };

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
      userAgent: sql.placeholder('userAgent'),
      ipAddress: sql.placeholder('ipAddress'),
      createdAt: sql.placeholder('createdAt'),
      sequence: sql.placeholder('sequence'),
      details: sql.placeholder('details'),
      previousHash: sql.placeholder('previousHash'),
      hash: sql.placeholder('hash'),
    })
    .prepare();
  const countIn = db
    .select({ n: count() })
    .from(activityLog)
    .where(eq(activityLog.contractId, sql.placeholder('contractId')))
    .prepare();
  // The unique (contract_id, sequence) index answers this with one seek.
  const head = db.$client.prepare<[number], { sequence: number; hash: string }>(
    'SELECT sequence, hash FROM activity_log WHERE contract_id = ? AND sequence IS NOT NULL ORDER BY sequence DESC LIMIT 1',
  );
  // The (contract_id, id) index answers this with one seek too.
  const newest = db.$client.prepare<[number], Pick<ActivityRow, 'event' | 'partyId' | 'details'>>(
    'SELECT event, party_id AS partyId, details FROM activity_log WHERE contract_id = ? ORDER BY id DESC LIMIT 1',
  );
  const setChain = db.$client.prepare<[number, string, string, number]>(
    'UPDATE activity_log SET sequence = ?, previous_hash = ?, hash = ? WHERE id = ?',
  );

  return {
    insert: async (row: ChainedActivity): Promise<void> => {
      insert.run(row);
    },
    /** The contract's last chained entry. */
    head: async (contractId: number): Promise<{ sequence: number; hash: string } | undefined> => head.get(contractId),
    /** What the contract's newest entry says: its event, acting party and details (JSON). */
    newest: async (contractId: number): Promise<Pick<ActivityRow, 'event' | 'partyId' | 'details'> | undefined> =>
      newest.get(contractId),
    countInContract: async (contractId: number): Promise<number> => countIn.get({ contractId })?.n ?? 0,
    /** Every entry of a contract in chain order (oldest first). */
    listChain: async (contractId: number): Promise<ActivityRow[]> =>
      db
        .select()
        .from(activityLog)
        .where(eq(activityLog.contractId, contractId))
        .orderBy(asc(activityLog.sequence), asc(activityLog.id))
        .all(),
    listPage: async (contractId: number, request: KeysetRequest): Promise<KeysetPage<ActivityRow>> =>
      fetchKeysetPage(NEWEST_FIRST, request, eq(activityLog.contractId, contractId), (where, orderBy, limit) =>
        db
          .select()
          .from(activityLog)
          .where(where)
          .orderBy(...orderBy)
          .limit(limit)
          .all(),
      ),
    /** Contracts holding entries written before the chain existed (the partial index makes this a seek). */
    contractsWithUnchained: async (): Promise<number[]> =>
      db
        .selectDistinct({ contractId: activityLog.contractId })
        .from(activityLog)
        .where(isNull(activityLog.hash))
        .all()
        .map((row) => row.contractId),
    unchainedOf: async (contractId: number): Promise<ActivityRow[]> =>
      db
        .select()
        .from(activityLog)
        .where(and(eq(activityLog.contractId, contractId), isNull(activityLog.hash)))
        .orderBy(asc(activityLog.id))
        .all(),
    setChain: async (id: number, sequence: number, previousHash: string, hash: string): Promise<void> => {
      setChain.run(sequence, previousHash, hash, id);
    },
  };
}

export type ActivityRepo = ReturnType<typeof createActivityRepo>;
