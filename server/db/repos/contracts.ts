import { and, count, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import type { Db } from '../open-database';
import { createPreparedInsert } from '../prepared-insert';
import { contracts } from '../schema';
import { createContractSearch, foldName } from './contract-search';

export { foldName } from './contract-search';

export type ContractRow = typeof contracts.$inferSelect;
/** Mirrors shared/api's contract statuses and sort terms (server/db/ does not import the API layer). */
export type ContractStatus = 'draft' | 'sent' | 'signed' | 'rejected';
export type ContractSortTerm = { key: 'id' | 'name' | 'is_signed'; isDescending: boolean };
export type NewContract = Omit<
  typeof contracts.$inferInsert,
  'id' | 'status' | 'nameFolded' | 'isSigned' | 'isUnsigned'
>;
export type ContractChanges = Partial<Omit<NewContract, 'createdAt' | 'createdBy'>>;
export type ContractFilter = {
  status?: ContractStatus | undefined;
  userId?: number | undefined;
  name?: string | undefined;
  /** The contract's name, or a party's name, e-mail or phone, holds this. */
  q?: string | undefined;
  /** Exact metadata keys and values, all of which must match. */
  metadata?: ReadonlyArray<readonly [string, string]> | undefined;
  /** updated_at at or after this (ms). */
  updatedSince?: number | undefined;
};
export type StatusCounts = Record<ContractStatus | 'all', number>;
export type ContractOrdering = { keys: SortKey<ContractRow>[]; signature: string };

const SORT_COLUMNS = {
  id: { column: contracts.id, valueOf: (row: ContractRow) => row.id },
  name: { column: contracts.nameFolded, valueOf: (row: ContractRow) => row.nameFolded },
  is_signed: { column: contracts.isSigned, valueOf: (row: ContractRow) => (row.isSigned ? 1 : 0) },
} as const;
const UNSIGNED = { column: contracts.isUnsigned, valueOf: (row: ContractRow) => (row.isSigned ? 0 : 1) };

/**
 * The keyset ordering for `sort` terms. Every ordering ends with the id. Its direction, and
 * that of any `is_signed` term, follows the `name` or `id` term when there is one (else the
 * first term): a descending `is_signed` is an ascending `is_unsigned`, so nearly every sort
 * walks one index in one direction and each page is an index seek. Under a status filter
 * `is_signed` is the same for every row and drops out.
 */
export function contractOrdering(
  terms: readonly ContractSortTerm[] | undefined,
  filter: ContractFilter,
): ContractOrdering {
  const given: ContractSortTerm[] = [];
  for (const term of terms && terms.length > 0 ? terms : [{ key: 'id', isDescending: true } as const]) {
    given.push(term);
    if (term.key === 'id') break;
  }
  const anchor = (given.find((term) => term.key !== 'is_signed') ?? given[0])?.isDescending ?? true;
  const keys: SortKey<ContractRow>[] = [];
  const names: string[] = [];
  for (const term of given) {
    if (term.key === 'is_signed') {
      if (filter.status !== undefined) continue;
      const isFlipped = term.isDescending !== anchor;
      keys.push({ ...(isFlipped ? UNSIGNED : SORT_COLUMNS.is_signed), isDescending: anchor });
      names.push(`${anchor ? '-' : ''}${isFlipped ? 'is_unsigned' : 'is_signed'}`);
      continue;
    }
    keys.push({ ...SORT_COLUMNS[term.key], isDescending: term.isDescending });
    names.push(`${term.isDescending ? '-' : ''}${term.key}`);
  }
  if (given.at(-1)?.key !== 'id') {
    keys.push({ ...SORT_COLUMNS.id, isDescending: anchor });
    names.push(`${anchor ? '-' : ''}id`);
  }
  return { keys, signature: `contracts:${names.join(',')}` };
}

const STATUSES: readonly ContractStatus[] = ['draft', 'sent', 'signed', 'rejected'];

function countScopes(status: string, userId: number): string[] {
  return ['*', `s:${status}`, `u:${userId}`, `u:${userId}:s:${status}`];
}

export function createContractRepo(db: Db) {
  const sqlite = db.$client;
  const byId = db
    .select()
    .from(contracts)
    .where(eq(contracts.id, sql.placeholder('id')))
    .prepare();
  const bump = sqlite.prepare<[string, number]>(
    'INSERT INTO contract_counts (scope, n) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET n = n + excluded.n',
  );
  const insertContract = createPreparedInsert(db, contracts);
  const touchStatement = sqlite.prepare<[number, number, number]>(
    'UPDATE contracts SET updated_at = ? WHERE id = ? AND updated_at < ?',
  );
  const countOf = sqlite.prepare<[string], { n: number }>('SELECT n FROM contract_counts WHERE scope = ?');
  const adjust = (status: string, userId: number, delta: number) => {
    for (const scope of countScopes(status, userId)) bump.run(scope, delta);
  };

  /**
   * What metadata pairs and updated_since narrow to: `ids`, the contract ids from their own index
   * ((key, value, contract_id); updated_at), and `check`, the same test of one contract row. With
   * no search window the first one's ids drive the query; the others are checked per row.
   */
  type Narrowing = { ids: SQL; check: SQL };
  const narrowingsOf = (filter: ContractFilter): Narrowing[] => [
    ...(filter.metadata ?? []).map(([key, value]) => ({
      ids: sql`SELECT contract_id FROM contract_metadata WHERE key = ${key} AND value = ${value}`,
      check: sql`EXISTS (SELECT 1 FROM contract_metadata WHERE contract_id = ${contracts.id} AND key = ${key} AND value = ${value})`,
    })),
    ...(filter.updatedSince === undefined
      ? []
      : [
          {
            ids: sql`SELECT id AS contract_id FROM contracts WHERE updated_at >= ${filter.updatedSince}`,
            check: sql`${contracts.updatedAt} >= ${filter.updatedSince}`,
          },
        ]),
  ];
  const whereOf = (filter: ContractFilter, narrowings: readonly Narrowing[] = narrowingsOf(filter)): SQL | undefined =>
    and(
      filter.status === undefined ? undefined : eq(contracts.status, filter.status),
      filter.userId === undefined ? undefined : eq(contracts.createdBy, filter.userId),
      ...narrowings.map((narrowing) => narrowing.check),
    );
  const search = createContractSearch(sqlite);
  /**
   * Contracts under a filter. A search reads only its window of ids: the CROSS JOIN makes
   * SQLite walk them and look each contract up, never an index of all contracts (whose cost
   * would grow with the office).
   */
  const selectWhere = <Fields extends Record<string, unknown>>(fields: Fields, filter: ContractFilter, extra?: SQL) => {
    const window = search.findWindow(filter.name, filter.q);
    const [driving, ...others] = narrowingsOf(filter);
    if (!window && driving)
      return db
        .select(fields as never)
        .from(sql`(${driving.ids}) AS id_window`)
        .crossJoin(contracts)
        .where(and(sql`${contracts.id} = id_window.contract_id`, whereOf(filter, others), extra))
        .$dynamic();
    if (!window)
      return db
        .select(fields as never)
        .from(contracts)
        .where(and(whereOf(filter), extra))
        .$dynamic();
    return db
      .select(fields as never)
      .from(sql`(SELECT value AS id FROM json_each(${JSON.stringify(window)})) AS search_window`)
      .crossJoin(contracts)
      .where(and(sql`${contracts.id} = search_window.id`, whereOf(filter), extra))
      .$dynamic();
  };
  const allColumns = getTableColumns(contracts);
  /** A search, or a filter kept counts do not cover: counted from its rows. */
  const isSearch = (filter: ContractFilter) =>
    Boolean(filter.name || filter.q || filter.metadata?.length || filter.updatedSince !== undefined);
  const scopeOf = (filter: ContractFilter): string => {
    let scope = '*';
    if (filter.userId !== undefined) scope = `u:${filter.userId}`;
    if (filter.status !== undefined)
      scope = filter.userId === undefined ? `s:${filter.status}` : `${scope}:s:${filter.status}`;
    return scope;
  };

  return {
    findById: async (id: number): Promise<ContractRow | undefined> => byId.get({ id }),
    /** Inserts a draft and counts it, in the caller's transaction. */
    async insert(row: NewContract): Promise<ContractRow> {
      const inserted = insertContract({ ...row, nameFolded: foldName(row.name ?? '') });
      adjust(inserted.status, inserted.createdBy, 1);
      return inserted;
    },
    async update(id: number, changes: ContractChanges): Promise<ContractRow | undefined> {
      const withKey = changes.name === undefined ? changes : { ...changes, nameFolded: foldName(changes.name) };
      return db.update(contracts).set(withKey).where(eq(contracts.id, id)).returning().get();
    },
    /** Moves updated_at forward to `at` (never back): an activity entry of the contract was written. */
    touch: async (id: number, at: number): Promise<void> => void touchStatement.run(at, id, at),
    /** Moves a contract to another state and its count with it, in the caller's transaction. */
    async changeStatus(row: ContractRow, status: ContractStatus, changes: ContractChanges): Promise<ContractRow> {
      const updated = db
        .update(contracts)
        .set({ ...changes, status })
        .where(eq(contracts.id, row.id))
        .returning()
        .get();
      if (!updated) throw new Error(`contract ${row.id} vanished during a status change`);
      adjust(row.status, row.createdBy, -1);
      adjust(status, row.createdBy, 1);
      return updated;
    },
    async remove(row: ContractRow): Promise<void> {
      if (db.delete(contracts).where(eq(contracts.id, row.id)).run().changes > 0) adjust(row.status, row.createdBy, -1);
    },
    /** O(1) for no filter, status, user and both (kept counts); a search counts its matches within its window. */
    async total(filter: ContractFilter): Promise<number> {
      if (isSearch(filter)) return (selectWhere({ n: count() }, filter).get() as { n: number } | undefined)?.n ?? 0;
      return countOf.get(scopeOf(filter))?.n ?? 0;
    },
    /** Whether a search's window may leave matches out (docs/decisions.md, search): the API says so in `Search-Partial`. */
    async isSearchPartial(filter: Pick<ContractFilter, 'name' | 'q'>): Promise<boolean> {
      return search.isPartial(filter.name, filter.q);
    },
    /** The total under each status filter (and none), the other filters applied: kept counts unless searching. */
    async countByStatus(filter: Omit<ContractFilter, 'status'>): Promise<StatusCounts> {
      const counts: StatusCounts = { all: 0, draft: 0, sent: 0, signed: 0, rejected: 0 };
      if (!isSearch(filter)) {
        for (const status of STATUSES) counts[status] = countOf.get(scopeOf({ ...filter, status }))?.n ?? 0;
        counts.all = countOf.get(scopeOf(filter))?.n ?? 0;
        return counts;
      }
      const rows = selectWhere({ status: contracts.status, n: count() }, filter)
        .groupBy(contracts.status)
        .all() as Array<{ status: string; n: number }>;
      for (const row of rows) {
        counts[row.status as ContractStatus] = row.n;
        counts.all += row.n;
      }
      return counts;
    },
    listPage: async (
      request: KeysetRequest,
      filter: ContractFilter,
      ordering: ContractOrdering,
    ): Promise<KeysetPage<ContractRow>> =>
      fetchKeysetPage(
        ordering.keys,
        request,
        undefined,
        (cursor, orderBy, limit) =>
          selectWhere(allColumns, filter, cursor)
            .orderBy(...orderBy)
            .limit(limit)
            .all() as ContractRow[],
      ),
    /** Rebuilds the kept counts from the rows (after a bulk import, or to repair); a month's usage (sent:, sms:) stays. */
    async recount(): Promise<void> {
      sqlite.exec(`
        DELETE FROM contract_counts WHERE scope = '*' OR scope LIKE 's:%' OR scope LIKE 'u:%';
        INSERT INTO contract_counts (scope, n) SELECT '*', count(*) FROM contracts;
        INSERT INTO contract_counts (scope, n) SELECT 's:' || status, count(*) FROM contracts GROUP BY status;
        INSERT INTO contract_counts (scope, n) SELECT 'u:' || created_by, count(*) FROM contracts GROUP BY created_by;
        INSERT INTO contract_counts (scope, n)
          SELECT 'u:' || created_by || ':s:' || status, count(*) FROM contracts GROUP BY created_by, status;`);
    },
  };
}

export type ContractRepo = ReturnType<typeof createContractRepo>;
