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

/** The sorts the API takes (the admin UI's among them), each with every filter a search combines with. */
const SORTS = ['-id', 'id', 'name', '-name', '-is_signed,-id', 'is_signed,name'];
const SEARCHES: ContractFilter[] = [
  { q: 'kund 5' },
  { q: 'k' },
  { q: 'ku' },
  { name: 'avtal 3' },
  { name: 'a' },
  { q: '@kund1', name: 'avtal' },
  { q: 'ab', name: 'avtal' },
  { q: 'kund 5', name: 'av' },
];
const SCOPES: ContractFilter[] = [{}, { status: 'sent' }, { userId: 1 }, { userId: 2, status: 'draft' }];

describe('contract search query plans', () => {
  let opened: OpenedDatabase;
  const plans: Array<{ query: string; plan: string }> = [];
  let repo: ReturnType<typeof createContractRepo>;

  beforeAll(() => {
    opened = openDatabase(path.join(makeTempDir(), 'search-plan.sqlite'));
    const { sqlite } = opened;
    sqlite.exec(
      `INSERT INTO users (username, email, permission_template, created_at) VALUES ('a', 'a@example.se', 'CUSTOMER_ADMIN_USER', 0), ('b', 'b@example.se', 'CUSTOMER_USER', 0)`,
    );
    sqlite.exec(
      `INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES ('x', 'application/pdf', 1, x'00', 0)`,
    );
    const contract = sqlite.prepare(
      `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at) VALUES (?, ?, ?, 'upload', 1, '[]', ?, 0, 0)`,
    );
    const party = sqlite.prepare(
      `INSERT INTO parties (contract_id, name, email, sign_token_hash, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, 1, 0, 0)`,
    );
    sqlite.transaction(() => {
      for (let index = 0; index < 5_000; index += 1) {
        const name = `Avtal ${index % 731} Kund ${index % 97}`;
        const id = contract.run(
          name,
          foldName(name),
          ['draft', 'sent', 'signed', 'rejected'][index % 4],
          1 + (index % 2),
        ).lastInsertRowid;
        party.run(id, `Part ${index}`, `p${index}@kund${index % 97}.example`, `h${index}`);
      }
    })();
    const logged = drizzle(sqlite, {
      schema,
      logger: {
        logQuery: (query, params) =>
          plans.push({
            query,
            plan: sqlite
              .prepare(`EXPLAIN QUERY PLAN ${query}`)
              .all(...(params as never[]))
              .map((row) => (row as { detail: string }).detail)
              .join(' | '),
          }),
      },
    }) as unknown as Db;
    repo = createContractRepo(createSqliteStore(createSqliteDatabase(logged), schema));
  });
  afterAll(() => opened.close());

  /** The plans of every query a list request and a counts request run: pages forward and back, total, counts. */
  const plansOf = async (sort: string, filter: ContractFilter) => {
    const ordering = contractOrdering(terms(sort), filter);
    plans.length = 0;
    const first = await repo.listPage({ isBackward: false, limit: 10 }, filter, ordering);
    const last = first.rows.at(-1);
    if (last) {
      const after = ordering.keys.map((key) => key.valueOf(last));
      await repo.listPage({ isBackward: false, limit: 10, after }, filter, ordering);
      await repo.listPage({ isBackward: true, limit: 10, after }, filter, ordering);
    }
    await repo.total(filter);
    await repo.countByStatus({ userId: filter.userId, name: filter.name, q: filter.q });
    return [...plans];
  };

  for (const search of SEARCHES) {
    for (const scope of SCOPES) {
      const filter = { ...search, ...scope };
      it.each(SORTS)(`${JSON.stringify(filter)} sort=%s reads only its window, never a whole table`, async (sort) => {
        const seen = await plansOf(sort, filter);
        expect(seen.length).toBeGreaterThanOrEqual(3);
        for (const { query, plan } of seen) {
          // The window's ids (found in the trigram index) are walked, each contract looked up by id; nothing else is read.
          expect(plan, query).toMatch(/^SCAN json_each VIRTUAL TABLE INDEX \S+ \| SEARCH contracts USING /);
          expect(plan, query).not.toMatch(/SCAN (contracts|parties)\b/);
          expect(plan, query).toMatch(
            /SEARCH contracts USING (INTEGER PRIMARY KEY \(rowid=\?\)|(COVERING )?INDEX \w+ \(.*rowid=\?\))/,
          );
        }
      });
    }
  }
});
