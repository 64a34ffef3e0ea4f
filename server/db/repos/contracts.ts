import { and, count, eq, getTableColumns, or, sql, type SQL } from 'drizzle-orm';
import { fetchKeysetPage, type KeysetPage, type KeysetRequest, type SortKey } from '../keyset';
import { createPreparedInsert } from '../prepared-insert';
import { contracts } from '../schema';
import type { Store } from '../store';
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

// An ordering names the columns of the schema (routes make it, knowing no dialect): the repository
// sorts by its own dialect's columns of the same names (columnsOf in createContractRepo).
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

/** recount(): the kept counts made again from the rows, one statement at a time (PostgreSQL prepares one per query). */
const RECOUNT = [
  'DELETE FROM contract_counts',
  "INSERT INTO contract_counts (scope, n) SELECT '*', count(*) FROM contracts",
  "INSERT INTO contract_counts (scope, n) SELECT 's:' || status, count(*) FROM contracts GROUP BY status",
  "INSERT INTO contract_counts (scope, n) SELECT 'u:' || created_by, count(*) FROM contracts GROUP BY created_by",
  `INSERT INTO contract_counts (scope, n)
     SELECT 'u:' || created_by || ':s:' || status, count(*) FROM contracts GROUP BY created_by, status`,
];

export function createContractRepo(x: Store) {
  const { orm, t } = x;
  const byId = x.prepare<ContractRow>((o, t) =>
    o
      .select()
      .from(t.contracts)
      .where(eq(t.contracts.id, sql.placeholder('id'))),
  );
  // The four scopes of a contract in one statement (one round trip on PostgreSQL).
  const bump = x.sql(
    `INSERT INTO contract_counts (scope, n) VALUES (?, ?), (?, ?), (?, ?), (?, ?)
     ON CONFLICT (scope) DO UPDATE SET n = contract_counts.n + excluded.n`,
  );
  const insertContract = createPreparedInsert(x, t.contracts);
  const touchStatement = x.sql('UPDATE contracts SET updated_at = ? WHERE id = ? AND updated_at < ?');
  const countOf = x.sql<{ n: number }>('SELECT n FROM contract_counts WHERE scope = ?');
  const recount = RECOUNT.map((text) => x.sql(text));
  const adjust = async (status: string, userId: number, delta: number) => {
    await bump.run(countScopes(status, userId).flatMap((scope) => [scope, delta]));
  };
  const countIn = async (scope: string) => (await countOf.get([scope]))?.n ?? 0;

  /** This dialect's column of an ordering's key (see SORT_COLUMNS). */
  const columns = new Map(Object.values(getTableColumns(t.contracts)).map((column) => [column.name, column]));
  const inDialect = (keys: readonly SortKey<ContractRow>[]): SortKey<ContractRow>[] =>
    keys.map((key) => ({ ...key, column: columns.get(key.column.name) ?? key.column }));

  /**
   * What metadata pairs and updated_since narrow to: `ids`, the contract ids from their own index
   * ((key, value, contract_id); updated_at), and `check`, the same test of one contract row. With
   * no search window the first one's ids drive the query; the others are checked per row.
   */
  type Narrowing = { ids: SQL; check: SQL };
  const narrowingsOf = (filter: ContractFilter): Narrowing[] => [
    ...(filter.metadata ?? []).map(([key, value]) => ({
      ids: sql`SELECT contract_id FROM contract_metadata WHERE key = ${key} AND value = ${value}`,
      check: sql`EXISTS (SELECT 1 FROM contract_metadata WHERE contract_id = ${t.contracts.id} AND key = ${key} AND value = ${value})`,
    })),
    ...(filter.updatedSince === undefined
      ? []
      : [
          {
            ids: sql`SELECT id AS contract_id FROM contracts WHERE updated_at >= ${filter.updatedSince}`,
            check: sql`${t.contracts.updatedAt} >= ${filter.updatedSince}`,
          },
        ]),
  ];
  const whereOf = (filter: ContractFilter, narrowings: readonly Narrowing[] = narrowingsOf(filter)): SQL | undefined =>
    and(
      filter.status === undefined ? undefined : eq(t.contracts.status, filter.status),
      filter.userId === undefined ? undefined : eq(t.contracts.createdBy, filter.userId),
      ...narrowings.map((narrowing) => narrowing.check),
    );
  const search = x.dialect === 'sqlite' ? createContractSearch(x) : undefined;
  /**
   * PostgreSQL's search, for now a plain test of every contract the other filters leave (a later
   * step gives it an index): the meaning of SQLite's (contract-search.ts), a substring of the
   * folded name, or of a party's folded name or e-mail, or of its phone. The parties' text is
   * folded by ICU's lower case, which folds as JavaScript's toLowerCase does (foldName) whatever
   * the database's own locale (a database made with LC_CTYPE C would fold ASCII only).
   */
  const pgSearchOf = (filter: ContractFilter): SQL | undefined => {
    const holds = (text: SQL, part: string) => sql`strpos(${text}, ${part}) > 0`;
    const name = filter.name ? foldName(filter.name) : undefined;
    const q = filter.q ? foldName(filter.q) : undefined;
    const nameHolds = name === undefined ? undefined : holds(sql`${t.contracts.nameFolded}`, name);
    if (q === undefined) return nameHolds;
    const partyHolds = sql.join(
      [
        holds(sql`lower(p.name COLLATE "und-x-icu")`, q),
        holds(sql`lower(p.email COLLATE "und-x-icu")`, q),
        holds(sql`p.mobile_phone`, q),
      ],
      sql` OR `,
    );
    return and(
      nameHolds,
      or(
        holds(sql`${t.contracts.nameFolded}`, q),
        sql`EXISTS (SELECT 1 FROM parties p WHERE p.contract_id = ${t.contracts.id} AND (${partyHolds}))`,
      ),
    );
  };
  /** SQLite's search window (contract-search.ts); none without a search, and none on PostgreSQL. */
  const windowOf = async (filter: ContractFilter): Promise<number[] | undefined> =>
    search?.findWindow(filter.name, filter.q);
  /**
   * Contracts under a filter. On SQLite a search reads only its window of ids: the CROSS JOIN
   * makes SQLite walk them and look each contract up, never an index of all contracts (whose
   * cost would grow with the office). The window is found before (windowOf): a drizzle query is
   * a thenable, which an async function returning it would run.
   */
  const selectWhere = <Fields extends Record<string, unknown>>(
    fields: Fields,
    filter: ContractFilter,
    window: number[] | undefined,
    extra?: SQL,
  ) => {
    const searched = search ? undefined : pgSearchOf(filter);
    const [driving, ...others] = narrowingsOf(filter);
    if (!window && driving)
      return orm
        .select(fields as never)
        .from(sql`(${driving.ids}) AS id_window`)
        .crossJoin(t.contracts)
        .where(and(sql`${t.contracts.id} = id_window.contract_id`, whereOf(filter, others), searched, extra))
        .$dynamic();
    if (!window)
      return orm
        .select(fields as never)
        .from(t.contracts)
        .where(and(whereOf(filter), searched, extra))
        .$dynamic();
    return orm
      .select(fields as never)
      .from(sql`(SELECT value AS id FROM json_each(${JSON.stringify(window)})) AS search_window`)
      .crossJoin(t.contracts)
      .where(and(sql`${t.contracts.id} = search_window.id`, whereOf(filter), extra))
      .$dynamic();
  };
  const allColumns = getTableColumns(t.contracts);
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
      const inserted = await insertContract({ ...row, nameFolded: foldName(row.name ?? '') });
      await adjust(inserted.status, inserted.createdBy, 1);
      return inserted;
    },
    async update(id: number, changes: ContractChanges): Promise<ContractRow | undefined> {
      const withKey = changes.name === undefined ? changes : { ...changes, nameFolded: foldName(changes.name) };
      return x.get(orm.update(t.contracts).set(withKey).where(eq(t.contracts.id, id)).returning());
    },
    /** Moves updated_at forward to `at` (never back): an activity entry of the contract was written. */
    touch: async (id: number, at: number): Promise<void> => {
      await touchStatement.run([at, id, at]);
    },
    /** Moves a contract to another state and its count with it, in the caller's transaction. */
    async changeStatus(row: ContractRow, status: ContractStatus, changes: ContractChanges): Promise<ContractRow> {
      const updated = await x.get<ContractRow>(
        orm
          .update(t.contracts)
          .set({ ...changes, status })
          .where(eq(t.contracts.id, row.id))
          .returning(),
      );
      if (!updated) throw new Error(`contract ${row.id} vanished during a status change`);
      await adjust(row.status, row.createdBy, -1);
      await adjust(status, row.createdBy, 1);
      return updated;
    },
    async remove(row: ContractRow): Promise<void> {
      if ((await x.run(orm.delete(t.contracts).where(eq(t.contracts.id, row.id)))).changes > 0)
        await adjust(row.status, row.createdBy, -1);
    },
    /** O(1) for no filter, status, user and both (kept counts); a search counts its matches within its window. */
    async total(filter: ContractFilter): Promise<number> {
      if (!isSearch(filter)) return countIn(scopeOf(filter));
      return (await x.get<{ n: number }>(selectWhere({ n: count() }, filter, await windowOf(filter))))?.n ?? 0;
    },
    /** Whether a search's window may leave matches out (docs/decisions.md, search): the API says so in `Search-Partial`. */
    async isSearchPartial(filter: Pick<ContractFilter, 'name' | 'q'>): Promise<boolean> {
      // PostgreSQL's search checks every contract (pgSearchOf): it leaves nothing out.
      return search ? search.isPartial(filter.name, filter.q) : false;
    },
    /** The total under each status filter (and none), the other filters applied: kept counts unless searching. */
    async countByStatus(filter: Omit<ContractFilter, 'status'>): Promise<StatusCounts> {
      const counts: StatusCounts = { all: 0, draft: 0, sent: 0, signed: 0, rejected: 0 };
      if (!isSearch(filter)) {
        for (const status of STATUSES) counts[status] = await countIn(scopeOf({ ...filter, status }));
        counts.all = await countIn(scopeOf(filter));
        return counts;
      }
      const rows = await x.all<{ status: string; n: number }>(
        selectWhere({ status: t.contracts.status, n: count() }, filter, await windowOf(filter)).groupBy(
          t.contracts.status,
        ),
      );
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
      fetchKeysetPage(inDialect(ordering.keys), request, undefined, async (cursor, orderBy, limit) => {
        const window = await windowOf(filter);
        return x.all<ContractRow>(
          selectWhere(allColumns, filter, window, cursor)
            .orderBy(...orderBy)
            .limit(limit),
        );
      }),
    /** Rebuilds the kept counts from the rows (after a bulk import, or to repair). */
    async recount(): Promise<void> {
      for (const statement of recount) await statement.run();
    },
  };
}

export type ContractRepo = ReturnType<typeof createContractRepo>;
