import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MIGRATIONS_FOLDER, openDatabase, type OpenedDatabase } from '../../server/db/open-database';
import { SEARCH_SCAN, SEARCH_WINDOW, SHORT_SEARCH_WINDOW } from '../../server/db/repos/contract-search';
import { contractOrdering, createContractRepo, type ContractFilter } from '../../server/db/repos/contracts';
import { storeOf } from '../../server/db/stores';
import { makeTempDir } from '../helpers/server';

type Party = { id: number; contractId: number; name: string; email: string; phone: string };
type Contract = { id: number; name: string; status: string; parties: Party[] };

/**
 * The search index against the plain meaning of a search (a substring of the folded text), after
 * every kind of change the triggers must follow, on a database that had rows before the index.
 */
describe('contract search index', () => {
  let opened: OpenedDatabase;
  let repo: ReturnType<typeof createContractRepo>;
  const contracts = new Map<number, Contract>();
  let nextParty = 0;

  const addContract = (name: string, status = 'draft') => {
    const id = Number(
      opened.sqlite
        .prepare(
          `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at) VALUES (?, ?, ?, 'upload', 1, '[]', 1, 0, 0)`,
        )
        .run(name, name.toLowerCase(), status).lastInsertRowid,
    );
    contracts.set(id, { id, name, status, parties: [] });
    return id;
  };
  const addParty = (contractId: number, name: string, email: string, phone = '') => {
    nextParty += 1;
    const id = Number(
      opened.sqlite
        .prepare(
          `INSERT INTO parties (contract_id, name, email, mobile_phone, sign_token_hash, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, 0, 0)`,
        )
        .run(contractId, name, email, phone, `hash-${nextParty}`).lastInsertRowid,
    );
    contracts.get(contractId)?.parties.push({ id, contractId, name, email, phone });
  };

  /** What a search means, worked out in JavaScript over every contract, newest first. */
  const expected = (filter: ContractFilter) => {
    const holds = (text: string, wanted: string) => text.toLowerCase().includes(wanted.toLowerCase());
    return [...contracts.values()]
      .filter((row) => filter.status === undefined || row.status === filter.status)
      .filter((row) => !filter.name || holds(row.name, filter.name))
      .filter(
        (row) =>
          !filter.q ||
          holds(row.name, filter.q) ||
          row.parties.some((party) => [party.name, party.email, party.phone].some((text) => holds(text, filter.q!))),
      )
      .map((row) => row.id)
      .sort((a, b) => b - a);
  };
  const found = async (filter: ContractFilter) => {
    const ids: number[] = [];
    const ordering = contractOrdering(undefined, filter);
    let after: Array<string | number | boolean> | undefined;
    for (;;) {
      const page = await repo.listPage({ isBackward: false, limit: 7, ...(after ? { after } : {}) }, filter, ordering);
      ids.push(...page.rows.map((row) => row.id));
      if (!page.hasMore) return ids;
      after = page.lastValues;
    }
  };
  const check = async (filter: ContractFilter) => {
    const wanted = expected(filter);
    expect(await found(filter), JSON.stringify(filter)).toEqual(wanted);
    expect(await repo.total(filter), JSON.stringify(filter)).toBe(wanted.length);
  };

  beforeAll(() => {
    // A database made before the index existed: migrations up to the one before it.
    const dir = makeTempDir();
    const older = path.join(dir, 'migrations');
    fs.cpSync(DEFAULT_MIGRATIONS_FOLDER, older, { recursive: true });
    const journalFile = path.join(older, 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.slice(
      0,
      journal.entries.findIndex((entry) => entry.tag.endsWith('_contract_search')),
    );
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    const file = path.join(dir, 'search.sqlite');
    opened = openDatabase(file, { migrationsFolder: older });
    opened.sqlite.exec(
      `INSERT INTO users (username, email, permission_template, created_at) VALUES ('a', 'a@example.se', 'CUSTOMER_ADMIN_USER', 0);
       INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES ('x', 'application/pdf', 1, x'00', 0)`,
    );
    const early = addContract('Hyresavtal Storgatan', 'sent');
    addParty(early, 'Åsa Öberg', 'ASA@Oberg.test', '+46701234567');
    addParty(early, 'Bo "Ek"', 'bo@ek.test');
    opened.close();
    // Opened again with every migration: the index is built from the rows already there.
    opened = openDatabase(file);
    repo = createContractRepo(storeOf(opened.db));
  });
  afterAll(() => opened.close());

  it('finds rows that were there before the index, by any part of a name, e-mail or phone, case-insensitively', async () => {
    for (const q of ['åsa', 'ÅSA ö', 'oberg.t', '701234', 'bo "ek"', 'storgatan', 'nowhere', 'å', 'ek', '"'])
      await check({ q });
    await check({ name: 'ATAN' });
    await check({ name: 'öberg' });
    // A long query is narrowed by a sample of its trigrams and still means the whole of it.
    const long = Array.from({ length: 40 }, (_, index) => `Del ${index} av ramavtalet`).join(', ');
    addContract(long);
    addContract(long.replace('Del 39', 'Del 93'));
    for (const q of [long, long.slice(7, 700), `${long.slice(0, 500)}!`]) await check({ q });
  });

  it('follows renames, new, changed, moved and deleted parties, and deleted contracts, in the same transaction', async () => {
    const a = addContract('Konsultavtal');
    const b = addContract('Köpeavtal', 'signed');
    addParty(a, 'Cecilia Ström', 'cecilia@strom.test');
    addParty(b, 'David Lund', 'david@lund.test', '070 111');
    await check({ q: 'ström' });
    await check({ q: 'lund' });
    opened.sqlite.prepare(`UPDATE contracts SET name = 'Arbetsavtal', name_folded = 'arbetsavtal' WHERE id = ?`).run(a);
    contracts.get(a)!.name = 'Arbetsavtal';
    await check({ q: 'konsult' });
    await check({ q: 'arbets' });
    await check({ name: 'arbets', q: 'cecilia' });
    const cecilia = contracts.get(a)!.parties[0]!;
    opened.sqlite.prepare(`UPDATE parties SET email = 'cecilia@fjord.test' WHERE id = ?`).run(cecilia.id);
    cecilia.email = 'cecilia@fjord.test';
    await check({ q: 'strom.test' });
    await check({ q: 'fjord' });
    // A party moved to another contract leaves the first and joins the second.
    opened.sqlite.prepare(`UPDATE parties SET contract_id = ? WHERE id = ?`).run(b, cecilia.id);
    contracts.get(a)!.parties = [];
    contracts.get(b)!.parties.push({ ...cecilia, contractId: b });
    await check({ q: 'fjord' });
    const david = contracts.get(b)!.parties[0]!;
    opened.sqlite.prepare(`DELETE FROM parties WHERE id = ?`).run(david.id);
    contracts.get(b)!.parties.shift();
    await check({ q: 'david' });
    await check({ q: 'fjord', status: 'signed' });
    // A change rolled back leaves the index as it was.
    expect(() =>
      opened.sqlite.transaction(() => {
        opened.sqlite.prepare(`UPDATE parties SET name = 'Zelda Rollback' WHERE id = ?`).run(cecilia.id);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    await check({ q: 'zelda' });
    // A contract written through another connection (another process) is found too.
    await check({ q: 'tredje' });
    const other = new Database(opened.sqlite.name);
    const id = Number(
      other
        .prepare(
          `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at) VALUES ('Tredje', 'tredje', 'draft', 'upload', 1, '[]', 1, 0, 0)`,
        )
        .run().lastInsertRowid,
    );
    other.close();
    contracts.set(id, { id, name: 'Tredje', status: 'draft', parties: [] });
    await check({ q: 'tredje' });
    // Found at once, although the search just now found nothing.
    addParty(a, 'Zelda Nova', 'zelda@nova.test');
    await check({ q: 'zelda' });
    opened.sqlite.prepare(`DELETE FROM contracts WHERE id = ?`).run(b);
    contracts.delete(b);
    await check({ q: 'fjord' });
    await check({ q: 'avtal' });
  });

  it('looks at the newest window of matches, and a short search at the newest contracts, and counts what it shows', async () => {
    const many = Math.max(SEARCH_WINDOW, SHORT_SEARCH_WINDOW) + 50;
    const first = addContract('Ramavtal äldst');
    // Few contracts: every search saw them all.
    expect([await repo.isSearchPartial({ q: 'ramavtal' }), await repo.isSearchPartial({ q: 'ra' })]).toEqual([
      false,
      false,
    ]);
    opened.sqlite.transaction(() => {
      for (let index = 0; index < many; index += 1) addContract(`Ramavtal ${index}`, index % 2 ? 'sent' : 'draft');
    })();
    const newest = (limit: number, filter: ContractFilter) => expected(filter).slice(0, limit);
    expect(await found({ q: 'ramavtal' })).toEqual(newest(SEARCH_WINDOW, { q: 'ramavtal' }));
    expect(await repo.total({ q: 'ramavtal' })).toBe(SEARCH_WINDOW);
    expect(await found({ q: 'ramavtal' })).not.toContain(first);
    // Filters apply within the window: half of it is sent.
    expect(await repo.countByStatus({ q: 'ramavtal' })).toMatchObject({ all: SEARCH_WINDOW, sent: SEARCH_WINDOW / 2 });
    // One or two characters: the newest SHORT_SEARCH_WINDOW contracts, checked one by one.
    const ids = [...contracts.keys()].sort((x, y) => y - x).slice(0, SHORT_SEARCH_WINDOW);
    expect(expected({ q: 'äl' })).toContain(first);
    expect(await found({ q: 'äl' })).toEqual([]);
    expect(await found({ q: '9' })).toEqual(expected({ q: '9' }).filter((id) => ids.includes(id)));
    // A match found by the index is still exact: a longer search is one substring, not its pieces.
    expect(await found({ q: 'ramavtal 10' })).toEqual(expected({ q: 'ramavtal 10' }));
    // Which searches may leave matches out: a full window, and a short search over more contracts than it checks.
    expect(await repo.isSearchPartial({ q: 'ramavtal' })).toBe(true);
    expect(await repo.isSearchPartial({ q: '9' })).toBe(true);
    expect(await repo.isSearchPartial({ q: 'ramavtal 10' })).toBe(false);
    expect(await repo.isSearchPartial({ q: 'ingenting här' })).toBe(false);
  });

  it('says a search may leave matches out when it checked its most candidates without filling its window', async () => {
    // Every candidate holds the query's one trigram, and only the oldest holds the query.
    const oldest = addContract('Ååååå');
    opened.sqlite.transaction(() => {
      for (let index = 0; index < SEARCH_SCAN + 100; index += 1) addContract('Åååb');
    })();
    expect(expected({ q: 'åååå' })).toEqual([oldest]);
    expect(await found({ q: 'åååå' })).toEqual([]);
    expect(await repo.isSearchPartial({ q: 'åååå' })).toBe(true);
  });
});
