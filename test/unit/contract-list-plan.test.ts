import path from 'node:path';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../server/db/database';
import type { Db, OpenedDatabase } from '../../server/db/open-database';
import { openDatabase } from '../../server/db/open-database';
import {
  contractOrdering,
  createContractRepo,
  foldName,
  type ContractFilter,
  type ContractSortTerm,
} from '../../server/db/repos/contracts';
import * as schema from '../../server/db/schema';
import { createSqliteStore } from '../../server/db/store';
import { makeTempDir } from '../helpers/server';

const terms = (sort: string): ContractSortTerm[] =>
  sort
    .split(',')
    .map((term) => ({ key: term.replace('-', '') as ContractSortTerm['key'], isDescending: term.startsWith('-') }));

const SORTS = [
  '-id',
  'id',
  'name',
  '-name',
  'is_signed',
  '-is_signed',
  'is_signed,name',
  'is_signed,-name',
  '-is_signed,name',
  '-is_signed,-name',
  'is_signed,-id',
];
/** Sorts led by name order by the name index and sort only rows of equal name ("RIGHT PART" / "LAST n TERMS"). */
const NAME_LED = ['name,is_signed', 'name,-is_signed', '-name,is_signed', 'name,-id'];

describe('contract list query plans', () => {
  let opened: OpenedDatabase;
  const plans: string[] = [];
  let repo: ReturnType<typeof createContractRepo>;

  beforeAll(() => {
    opened = openDatabase(path.join(makeTempDir(), 'plan.sqlite'));
    const { sqlite } = opened;
    sqlite.exec(
      `INSERT INTO users (username, email, permission_template, created_at) VALUES ('a', 'a@example.se', 'CUSTOMER_ADMIN_USER', 0), ('b', 'b@example.se', 'CUSTOMER_USER', 0)`,
    );
    sqlite.exec(
      `INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES ('x', 'application/pdf', 1, x'00', 0)`,
    );
    const insert = sqlite.prepare(
      `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at) VALUES (?, ?, ?, 'upload', 1, '[]', ?, 0, 0)`,
    );
    sqlite.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) {
        const name = `Contract ${index % 731}`;
        insert.run(name, foldName(name), ['draft', 'sent', 'signed', 'rejected'][index % 4], 1 + (index % 2));
      }
      // Metadata on a few contracts; updated times spread over the rows.
      const meta = sqlite.prepare('INSERT INTO contract_metadata (contract_id, key, value) VALUES (?, ?, ?)');
      for (let id = 1; id <= 5_000; id += 1) {
        meta.run(id, 'batch', `b${id % 50}`);
        if (id % 97 === 0) meta.run(id, 'order_id', `A-${id}`);
      }
      sqlite.exec('UPDATE contracts SET updated_at = id * 1000');
    })();
    // The repository's own queries, seen through a logger on the same connection.
    const logged = drizzle(sqlite, {
      schema,
      logger: {
        logQuery: (query, params) =>
          plans.push(
            sqlite
              .prepare(`EXPLAIN QUERY PLAN ${query}`)
              .all(...(params as never[]))
              .map((row) => (row as { detail: string }).detail)
              .join(' | '),
          ),
      },
    }) as unknown as Db;
    repo = createContractRepo(createSqliteStore(createSqliteDatabase(logged), schema));
  });
  afterAll(() => opened.close());

  /** The plans of a first page and of the page after a row in the middle. */
  const plansOf = async (sort: string, filter: ContractFilter) => {
    const ordering = contractOrdering(terms(sort), filter);
    plans.length = 0;
    const first = await repo.listPage({ isBackward: false, limit: 10 }, filter, ordering);
    const middle = first.rows.at(-1)!;
    await repo.listPage(
      { isBackward: false, limit: 10, after: ordering.keys.map((key) => key.valueOf(middle)) },
      filter,
      ordering,
    );
    await repo.listPage(
      { isBackward: true, limit: 10, after: ordering.keys.map((key) => key.valueOf(middle)) },
      filter,
      ordering,
    );
    return [...plans];
  };

  const filters: Array<[string, ContractFilter]> = [
    ['no filter', {}],
    ['status', { status: 'sent' }],
    ['user and status', { userId: 1, status: 'draft' }],
    ['user', { userId: 2 }],
  ];

  for (const [label, filter] of filters) {
    it.each(SORTS)(`${label}: sort=%s seeks an index and never sorts the table`, async (sort) => {
      const [first, after, before] = await plansOf(sort, filter);
      for (const plan of [first, after, before]) expect(plan).not.toMatch(/TEMP B-TREE/);
      for (const plan of [after, before]) expect(plan).toMatch(/^SEARCH contracts USING (INDEX|INTEGER PRIMARY KEY)/);
      // Each filter is a seek of the index, not a check of every row the index walks.
      for (const plan of [first, after, before]) {
        if (filter.userId !== undefined) expect(plan).toMatch(/\(created_by=\?/);
        if (filter.status !== undefined) expect(plan).toMatch(/status=\?/);
      }
    });
  }

  it.each(['-id', 'id', 'name', '-name', 'is_signed', '-is_signed'])('user: sort=%s seeks an index', async (sort) => {
    const [, after] = await plansOf(sort, { userId: 1 });
    expect(after).toMatch(/^SEARCH contracts USING INDEX contracts_user_/);
    expect(after).not.toMatch(/TEMP B-TREE/);
  });

  it.each(NAME_LED)('sort=%s walks the name index and sorts only ties', async (sort) => {
    for (const plan of await plansOf(sort, {})) {
      expect(plan).toMatch(/USING INDEX contracts_name_id/);
      expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    }
  });

  const narrowing: Array<[string, ContractFilter]> = [
    ['metadata', { metadata: [['order_id', 'A-970']] }],
    [
      'two metadata keys',
      {
        metadata: [
          ['batch', 'b20'],
          ['order_id', 'A-970'],
        ],
      },
    ],
    ['updated_since', { updatedSince: 4_990_000 }],
    ['metadata and updated_since', { metadata: [['batch', 'b3']], updatedSince: 4_000_000 }],
    ['metadata and user', { metadata: [['batch', 'b4']], userId: 2 }],
  ];
  it.each(narrowing)(
    '%s: reads its index, looks each contract up by id, and never scans contracts',
    async (_label, filter) => {
      for (const plan of await plansOf('-id', filter)) {
        expect(plan).not.toMatch(/SCAN contracts/);
        if (filter.metadata)
          expect(plan).toMatch(
            /SEARCH contract_metadata USING COVERING INDEX contract_metadata_key_value \(key=\? AND value=\?/,
          );
        // With metadata too, the metadata index drives and updated_at is checked on each row found.
        if (filter.updatedSince !== undefined && !filter.metadata)
          expect(plan).toMatch(/USING COVERING INDEX contracts_updated_at \(updated_at>\?\)/);
        expect(plan).toMatch(/SEARCH contracts USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      }
      plans.length = 0;
      await repo.total(filter);
      expect(plans.join(' | ')).not.toMatch(/SCAN contracts/);
    },
  );

  it('finds exactly the contracts of a metadata value, and those updated since a time', async () => {
    const ordering = contractOrdering(undefined, {});
    const ids = async (filter: ContractFilter) =>
      (await repo.listPage({ isBackward: false, limit: 100 }, filter, ordering)).rows.map((row) => row.id);
    expect(await ids({ metadata: [['order_id', 'A-970']] })).toEqual([970]);
    expect(
      await ids({
        metadata: [
          ['batch', 'b20'],
          ['order_id', 'A-970'],
        ],
      }),
    ).toEqual([970]);
    expect(
      await ids({
        metadata: [
          ['batch', 'b21'],
          ['order_id', 'A-970'],
        ],
      }),
    ).toEqual([]);
    expect(await ids({ updatedSince: 4_996_000 })).toEqual([5000, 4999, 4998, 4997, 4996]);
    expect(await repo.total({ metadata: [['batch', 'b7']] })).toBe(100);
    expect(await repo.total({ updatedSince: 4_996_000 })).toBe(5);
  });
});
