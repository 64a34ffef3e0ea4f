import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/db/database';
import { SEARCH_SCAN, SEARCH_WINDOW } from '../../server/db/repos/contract-search';
import { indexedSql, newestSql } from '../../server/db/repos/contract-search-pg';
import {
  contractOrdering,
  createContractRepo,
  type ContractFilter,
  type ContractRepo,
} from '../../server/db/repos/contracts';
import { createPartyRepo } from '../../server/db/repos/parties';
import { DIALECTS, openTestDatabase, type TestDatabase } from '../helpers/databases';
import { repoRows } from '../helpers/repo-rows';

/**
 * The contract search over more contracts than a search checks one by one (SEARCH_SCAN): on both
 * dialects the same window of the newest matches, the same totals and the same `isPartial`,
 * whether the matches are among the newest contracts or older; and on PostgreSQL the trigram
 * indexes answer the older ones (its plan says so) and the search text is folded in JavaScript.
 */
const N = SEARCH_SCAN + 1_000;

/** N contracts `Avtal <i>`, each with a party `Part <i>` (every thousandth `ÖDLA Sällsynt`), `p<i>@firma.test`, `+4670<i>`. */
const SEED = [
  `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${N})
   INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at)
   SELECT 'Avtal ' || i, 'avtal ' || i, 'draft', 'upload', ?, '[]', ?, 0, 0 FROM n ORDER BY i`,
  `INSERT INTO parties (contract_id, name, email, mobile_phone, sign_token_hash, created_by, created_at, updated_at)
   SELECT id, CASE WHEN substr(name, 7) IN ('1000', '2000', '3000', '4000', '5000', '6000') THEN 'ÖDLA Sällsynt'
     ELSE 'Part ' || substr(name, 7) END, 'p' || substr(name, 7) || '@firma.test', '+4670' || substr(name, 7),
     'bulk-' || id, created_by, 0, 0
   FROM contracts WHERE name LIKE 'Avtal %' ORDER BY id`,
];

for (const dialect of DIALECTS)
  describe(`the contract search over ${N} contracts on ${dialect}`, () => {
    let opened: TestDatabase;
    let contracts: ContractRepo;
    /** The id of contract `Avtal <i>`. */
    const idOf = new Map<number, number>();

    beforeAll(async () => {
      opened = await openTestDatabase(dialect);
      const x = opened.store;
      contracts = createContractRepo(x);
      const rows = repoRows(x);
      const user = await rows.addUser('anna');
      const pdf = await rows.addPdf('search');
      await x.sql(SEED[0]!).run([pdf, user]);
      await x.sql(SEED[1]!).run();
      // Rows written by plain SQL: PostgreSQL's search text is made from them (SQLite's triggers kept its index).
      await contracts.rebuildSearch();
      for (const row of await x.sql<{ id: number; name: string }>('SELECT id, name FROM contracts').all())
        idOf.set(Number(row.name.slice(6)), Number(row.id));
    });
    afterAll(() => opened?.close());

    const search = async (filter: ContractFilter) => {
      const page = await contracts.listPage(
        { isBackward: false, limit: 5 },
        filter,
        contractOrdering(undefined, filter),
      );
      return {
        first: page.rows.map((row) => row.name),
        total: await contracts.total(filter),
        all: (await contracts.countByStatus(filter)).all,
        isPartial: await contracts.isSearchPartial(filter),
      };
    };
    const names = (...numbers: number[]) => numbers.map((i) => `Avtal ${i}`);

    it('finds rare matches among the newest contracts and beyond them, folding Ö and å, and leaves none out', async () => {
      // Avtal 1000 is older than the newest SEARCH_SCAN contracts.
      const rare = names(6000, 5000, 4000, 3000, 2000);
      expect(await search({ q: 'ödla' })).toEqual({ first: rare, total: 6, all: 6, isPartial: false });
      expect(await search({ q: 'SÄLLSYNT' })).toEqual({ first: rare, total: 6, all: 6, isPartial: false });
      expect(await search({ q: '4670600' })).toEqual({ first: names(6000, 600), total: 2, all: 2, isPartial: false });
      expect(await search({ name: 'avtal 6000' })).toEqual({ first: names(6000), total: 1, all: 1, isPartial: false });
      expect(await search({ name: 'avtal 10', q: 'ödla' })).toEqual({
        first: names(1000),
        total: 1,
        all: 1,
        isPartial: false,
      });
      expect(await search({ q: 'nowhere' })).toEqual({ first: [], total: 0, all: 0, isPartial: false });
      // Each of its trigrams is in Avtal 1000's party, the whole query in no contract.
      expect(await search({ q: 'sällsynt ödla' })).toEqual({ first: [], total: 0, all: 0, isPartial: false });
      // LIKE's wildcards in a query stand for themselves.
      for (const q of ['avt_l', 'avtal%1', 'firma\\'])
        expect(await search({ q }), q).toEqual({ first: [], total: 0, all: 0, isPartial: false });
    });

    it('keeps a common search to its newest SEARCH_WINDOW matches and says more may match', async () => {
      expect(await search({ q: 'firma' })).toEqual({
        first: names(N, N - 1, N - 2, N - 3, N - 4),
        total: SEARCH_WINDOW,
        all: SEARCH_WINDOW,
        isPartial: true,
      });
      // 999 matches among the newest SEARCH_SCAN, the thousandth (Avtal 1000) older: the window is just full.
      expect(await search({ q: 'avtal 1' })).toEqual({
        first: names(1999, 1998, 1997, 1996, 1995),
        total: SEARCH_WINDOW,
        all: SEARCH_WINDOW,
        isPartial: true,
      });
      const window = await contracts.listPage(
        { isBackward: false, limit: 1_000 },
        { q: 'avtal 1' },
        contractOrdering(undefined, {}),
      );
      expect(window.rows.at(-1)?.name).toBe('Avtal 1000');
      // Shorter than a trigram: the newest SHORT_SEARCH_WINDOW contracts are checked.
      expect(await search({ q: '70' })).toMatchObject({ total: 1_000, isPartial: true });
    });

    it('walks on past the newest contracts for a query they hold often, as if the office were large, with the same answers', async () => {
      // PostgreSQL walks on when the office's count predicts a cheaper walk than the indexes (never at 6,000).
      const x = opened.store;
      const kept = await x.sql<{ n: number }>("SELECT n FROM contract_counts WHERE scope = '*'").get();
      await x
        .sql("INSERT INTO contract_counts (scope, n) VALUES ('*', ?) ON CONFLICT (scope) DO UPDATE SET n = excluded.n")
        .run([10_000_000]);
      try {
        expect(await search({ q: 'avtal 1' })).toEqual({
          first: names(1999, 1998, 1997, 1996, 1995),
          total: SEARCH_WINDOW,
          all: SEARCH_WINDOW,
          isPartial: true,
        });
        // 100 matches among the newest, 11 older: the walk falls short and the indexes find all 111.
        expect(await search({ q: 'avtal 55' })).toEqual({
          first: names(5599, 5598, 5597, 5596, 5595),
          total: 111,
          all: 111,
          isPartial: false,
        });
      } finally {
        await x.sql("UPDATE contract_counts SET n = ? WHERE scope = '*'").run([kept?.n ?? 0]);
      }
    });

    it('follows a party written through the repository at once', async () => {
      const parties = createPartyRepo(opened.store);
      const contract = (await contracts.findById(idOf.get(1)!))!;
      const party = await repoRows(opened.store).addParty(contract, { name: 'Zäta Ödmjuk', email: 'ZETA@ex.TEST' });
      expect(await search({ q: 'ödmjuk' })).toMatchObject({ first: names(1), total: 1 });
      expect(await search({ q: 'zeta@ex.test' })).toMatchObject({ first: names(1), total: 1 });
      await parties.update(party.id, { mobilePhone: '+4612345' });
      expect(await search({ q: '612345' })).toMatchObject({ first: names(1), total: 1 });
      await parties.remove(party.id);
      expect(await search({ q: 'ödmjuk' })).toMatchObject({ first: [], total: 0 });
      await contracts.remove(contract);
      expect(await search({ q: '4670600' })).toMatchObject({ first: names(6000, 600) });
      expect(await search({ name: 'avtal 1' })).toMatchObject({ total: SEARCH_WINDOW, isPartial: true });
    });

    if (dialect === 'postgres')
      it('keeps the text folded in JavaScript, and answers the older matches through the trigram indexes', async () => {
        const x = opened.store;
        expect(await x.sql('SELECT name, parties FROM contract_search WHERE id = ?').get([idOf.get(2000)!])).toEqual({
          name: 'avtal 2000',
          parties: 'ödla sällsynt\np2000@firma.test\n+46702000',
        });
        // At 6,000 contracts a sequential scan costs less than any index, and the planner takes it;
        // without it, the plans show what these statements use at any size where an index pays
        // (bench/pg-search.ts shows the planner's own choice at a large office).
        await inTransaction(opened.db, async () => {
          await x.sql('SET LOCAL enable_seqscan = off').run();
          const plan = async (text: string) =>
            (await x.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`).all()).map((row) => row['QUERY PLAN']).join('\n');
          // Driven by a rare trigram of each column, the whole query checked on the rows they give.
          const filled = (text: string) =>
            text
              .replaceAll('@name_q0', "'%dla%'")
              .replaceAll('@parties_q0', "'%dla%'")
              .replaceAll('@name_name0', "'%l 1%'")
              .replaceAll('@q', "'%ödla%'")
              .replaceAll('@name', "'%avtal 10%'")
              .replace('@scan', String(SEARCH_SCAN));
          const q = await plan(filled(indexedSql('q', { part: 'q', name: ['dla'], parties: ['dla'] })));
          expect(q).toContain('Bitmap Index Scan on contract_search_name_trgm');
          expect(q).toContain('Bitmap Index Scan on contract_search_parties_trgm');
          expect(await plan(filled(indexedSql('name', { part: 'name', name: ['val'], parties: [] })))).toContain(
            'Bitmap Index Scan on contract_search_name_trgm',
          );
          expect(await plan(filled(newestSql('q')))).toContain('Index Scan Backward using contract_search_pkey');
        });
      });
  });
