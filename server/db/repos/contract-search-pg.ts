import type { Statement, Store } from '../store';
import { foldName, SEARCH_SCAN, SEARCH_WINDOW, SHORT_SEARCH_WINDOW, type SearchWindow } from './contract-search';

/**
 * PostgreSQL's contract search (docs/decisions.md, "Contracts", search), the twin of SQLite's
 * (contract-search.ts) with the same meaning and the same window. Its text is the table
 * `contract_search` (migrations-pg/0001): per contract the folded name, and each party's folded
 * name, e-mail and phone one per line, as SQLite's index holds them; pg_trgm's GIN indexes answer
 * `LIKE '%…%'` on it. The repositories write it (createSearchText) in the caller's transaction,
 * folded here in JavaScript, so both dialects fold alike.
 *
 * A search's window is its newest SEARCH_WINDOW matches: the newest SEARCH_SCAN contracts are
 * checked first (walking the primary key, cheap, and enough when the query is common); when they
 * do not fill the window, a query they hold often walks on, and a rarer one is answered by the
 * trigram indexes, which find every match, the newest kept. Either way the window holds exactly
 * the newest matches, and says it may leave matches out only when it is full. A query shorter than a
 * trigram checks the newest SHORT_SEARCH_WINDOW contracts, as on SQLite.
 */

type PartyText = { name: string; email: string; mobilePhone: string };

/** A contract's parties as the search holds them: SQLite's contract_search_source view, folded the same way. */
export const partiesText = (parties: readonly PartyText[]): string =>
  parties.map((party) => `${foldName(party.name)}\n${foldName(party.email)}\n${party.mobilePhone}`).join('\n');

/** `%part%` for LIKE, whose wildcards and escape (backslash, PostgreSQL's default) in `part` stand for themselves. */
const containing = (part: string): string => `%${part.replace(/[\\%_]/g, '\\$&')}%`;

/** pg_trgm extracts no trigram below three characters; a line break never spans two fields in the index's sense. */
const isIndexable = (folded: string): boolean => Array.from(folded).length >= 3 && !folded.includes('\n');

/**
 * The index is asked for a query's two rarest trigrams per column, as SQLite's is (contract-search.ts):
 * given the whole query, pg_trgm reads every one of its trigrams' lists, and a real query's common
 * ones ("avt", "kun") are in nearly every contract (measured: 75-110 ms at 300k contracts against 2 ms
 * for one rare part). A trigram's count is read up to FREQUENCY_CAP; from FREQUENCY_KEPT up it is kept a while.
 */
const FREQUENCY_CAP = 20_000;
const FREQUENCY_KEPT = 500;
const FREQUENCY_TTL_MS = 10 * 60_000;
const FREQUENCY_ENTRIES = 50_000;
const MAX_GRAMS = 24;
type Column = 'name' | 'parties';

/** The query's runs of three ASCII letters or digits (each one trigram to pg_trgm in any locale), at most MAX_GRAMS spread over it. */
function gramsOf(folded: string): string[] {
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= folded.length; index += 1) {
    const gram = folded.slice(index, index + 3);
    if (/^[a-z0-9]{3}$/.test(gram)) grams.add(gram);
  }
  const all = [...grams];
  if (all.length <= MAX_GRAMS) return all;
  return Array.from({ length: MAX_GRAMS }, (_, index) => all[Math.floor((index * all.length) / MAX_GRAMS)] as string);
}

/** The column's test for `param`, driven by its rarest grams (`@<column>_<param><i>`); the whole pattern hidden from the index. */
const driven = (column: Column, grams: readonly string[], param: 'name' | 'q'): string =>
  grams.length === 0
    ? `${column} LIKE @${param}`
    : [
        ...grams.map((_, index) => `${column} LIKE @${column}_${param}${index}`),
        `(${column} || '') LIKE @${param}`,
      ].join(' AND ');

/** Which grams drive a search: per column, for the part (`name` or `q`) the index looks up. */
export type Driving = { part: 'name' | 'q'; name: string[]; parties: string[] };

/** Every match of a search through the trigram indexes, the newest SEARCH_WINDOW kept. */
export function indexedSql(shape: Shape, driving: Driving): string {
  const q =
    driving.part === 'q'
      ? `((${driven('name', driving.name, 'q')}) OR (${driven('parties', driving.parties, 'q')}))`
      : `((name || '') LIKE @q OR (parties || '') LIKE @q)`;
  const name = driving.part === 'name' ? driven('name', driving.name, 'name') : `(name || '') LIKE @name`;
  const condition = shape === 'name' ? name : shape === 'q' ? q : `${name} AND ${q}`;
  // OFFSET 0 keeps the planner on the indexes, not a walk of the primary key (every contract when the query is rare).
  return `SELECT id FROM (SELECT id FROM contract_search WHERE ${condition} OFFSET 0) AS matches
    ORDER BY id DESC LIMIT ${SEARCH_WINDOW}`;
}

/** The three shapes of a search, each its own statement so that the planner sees which index serves it. */
export type Shape = 'name' | 'q' | 'both';
const CONDITIONS: Record<Shape, string> = {
  name: 'name LIKE @name',
  q: '(name LIKE @q OR parties LIKE @q)',
  both: 'name LIKE @name AND (name LIKE @q OR parties LIKE @q)',
};

/** A search shape's walk of the newest contracts (the inner LIMIT keeps it to the primary key). */
export function newestSql(shape: Shape): string {
  return `SELECT id FROM (SELECT id, name, parties FROM contract_search ORDER BY id DESC LIMIT @scan) AS newest
    WHERE ${CONDITIONS[shape]} ORDER BY id DESC LIMIT ${SEARCH_WINDOW}`;
}

export function createPgContractSearch(x: Store) {
  if (x.dialect !== 'postgres') throw new Error("this search index is PostgreSQL's");
  const byShape = {
    name: { newest: x.sql<{ id: number }>(newestSql('name')) },
    q: { newest: x.sql<{ id: number }>(newestSql('q')) },
    both: { newest: x.sql<{ id: number }>(newestSql('both')) },
  };
  const office = x.sql<{ n: number }>("SELECT n FROM contract_counts WHERE scope = '*'");
  const countUpTo = {
    name: x.sql<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM contract_search WHERE name LIKE ? LIMIT ${FREQUENCY_CAP}) AS s`,
    ),
    parties: x.sql<{ n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM contract_search WHERE parties LIKE ? LIMIT ${FREQUENCY_CAP}) AS s`,
    ),
  };
  const frequencies = new Map<string, { count: number; at: number }>();
  /** How many contracts' column holds the gram (up to the cap): read once, then kept a while when common. */
  const frequencyOf = async (column: Column, gram: string): Promise<number> => {
    const now = Date.now();
    const key = `${column}:${gram}`;
    const known = frequencies.get(key);
    if (known && now - known.at < FREQUENCY_TTL_MS) return known.count;
    const count = (await countUpTo[column].get([containing(gram)]))?.n ?? 0;
    if (count < FREQUENCY_KEPT) return count;
    if (frequencies.size >= FREQUENCY_ENTRIES) frequencies.clear();
    frequencies.set(key, { count, at: now });
    return count;
  };
  const rarest = async (column: Column, folded: string): Promise<string[]> => {
    const counted: { gram: string; count: number }[] = [];
    for (const gram of gramsOf(folded)) counted.push({ gram, count: await frequencyOf(column, gram) });
    const two = counted.sort((a, b) => a.count - b.count).slice(0, 2);
    // Runs common everywhere ("berg 77": "ber", "erg") narrow less than pg_trgm's own trigrams of the
    // whole pattern, which include the words' edges (" 77"): the index then gets the whole pattern.
    if ((two[0]?.count ?? 0) > SEARCH_SCAN) return [];
    return two.map((each) => each.gram);
  };
  const indexedStatements = new Map<string, Statement<{ id: number }>>();
  const indexedFor = (shape: Shape, driving: Driving) => {
    const text = indexedSql(shape, driving);
    let statement = indexedStatements.get(text);
    if (!statement) indexedStatements.set(text, (statement = x.sql<{ id: number }>(text)));
    return statement;
  };
  const isBeyondShortWindow = x.sql<{ isBeyond: boolean }>(
    `SELECT count(*) > ${SHORT_SEARCH_WINDOW} AS "isBeyond" FROM (SELECT id FROM contract_search LIMIT ${SHORT_SEARCH_WINDOW + 1}) AS s`,
  );
  const shortCheck = `(CAST(@name AS text) IS NULL OR strpos(name, @name) > 0)
    AND (CAST(@q AS text) IS NULL OR strpos(name, @q) > 0 OR strpos(parties, @q) > 0)`;
  const newestShort = x.sql<{ id: number }>(
    `SELECT id FROM (SELECT id, name, parties FROM contract_search ORDER BY id DESC LIMIT ${SHORT_SEARCH_WINDOW}) AS s
     WHERE ${shortCheck} ORDER BY id DESC`,
  );
  // A list request reads its window twice (page and total) and the admin UI's counts once more:
  // the last window is reused while no transaction has committed since (the snapshot is the same).
  // Never inside a transaction, whose own writes leave the snapshot as it was.
  const snapshot = x.sql<{ at: string }>('SELECT pg_current_snapshot()::text AS at');
  let last: ({ key: string } & SearchWindow) | undefined;

  async function findIds(name: string | undefined, q: string | undefined): Promise<SearchWindow> {
    const folded = { name: name ? foldName(name) : null, q: q ? foldName(q) : null };
    const isShort =
      (folded.name === null || !isIndexable(folded.name)) && (folded.q === null || !isIndexable(folded.q));
    if (isShort)
      return {
        ids: (await newestShort.all(folded)).map((row) => Number(row.id)),
        isPartial: Boolean((await isBeyondShortWindow.get())?.isBeyond),
      };
    // A part too short for the index is still checked on every row the other part finds.
    const shape: Shape = folded.name === null ? 'q' : folded.q === null ? 'name' : 'both';
    const params = {
      name: folded.name === null ? null : containing(folded.name),
      q: folded.q === null ? null : containing(folded.q),
    };
    const { newest } = byShape[shape];
    const recent = (await newest.all({ ...params, scan: SEARCH_SCAN })).map((row) => Number(row.id));
    // A common query fills its window among the newest contracts: the indexes would find too many.
    if (recent.length === SEARCH_WINDOW) return { ids: recent, isPartial: true };
    // A query the newest contracts hold often enough (as often in older ones) fills its window by
    // walking on, at less cost than the indexes' every match: twice the walk its share predicts,
    // when that is shorter than the matches the indexes would read. Else, or when that walk falls
    // short, the indexes answer.
    const walk = Math.ceil((2 * SEARCH_SCAN * SEARCH_WINDOW) / Math.max(1, recent.length));
    const matchesAll = (recent.length / SEARCH_SCAN) * ((await office.get())?.n ?? 0);
    if (recent.length > 0 && walk < matchesAll) {
      const walked = (await newest.all({ ...params, scan: walk })).map((row) => Number(row.id));
      if (walked.length === SEARCH_WINDOW) return { ids: walked, isPartial: true };
    }
    const part = folded.name !== null && isIndexable(folded.name) ? 'name' : 'q';
    const text = (part === 'name' ? folded.name : folded.q) as string;
    const driving: Driving = {
      part,
      name: await rarest('name', text),
      parties: part === 'q' ? await rarest('parties', text) : [],
    };
    const grams: Record<string, string> = {};
    for (const column of ['name', 'parties'] as const)
      driving[column].forEach((gram, index) => (grams[`${column}_${part}${index}`] = containing(gram)));
    const ids = (await indexedFor(shape, driving).all({ ...params, ...grams })).map((row) => Number(row.id));
    // Every match was found: the window leaves matches out only when it is full.
    return { ids, isPartial: ids.length === SEARCH_WINDOW };
  }

  async function windowOf(name: string | undefined, q: string | undefined): Promise<SearchWindow | undefined> {
    if (!name && !q) return undefined;
    if (x.isInTransaction()) return findIds(name, q);
    const key = JSON.stringify([name ?? '', q ?? '', (await snapshot.get())?.at ?? '']);
    if (last?.key !== key) last = { key, ...(await findIds(name, q)) };
    return last;
  }

  return {
    /** As SQLite's (contract-search.ts): the newest matches' ids, newest first, at most SEARCH_WINDOW. */
    async findWindow(name: string | undefined, q: string | undefined): Promise<number[] | undefined> {
      return (await windowOf(name, q))?.ids;
    },
    async isPartial(name: string | undefined, q: string | undefined): Promise<boolean> {
      return (await windowOf(name, q))?.isPartial ?? false;
    },
  };
}

/**
 * The writes that keep PostgreSQL's search text, called by the contract and party repositories in
 * the caller's transaction. On SQLite they do nothing: its triggers keep its index.
 */
export function createSearchText(x: Store) {
  if (x.dialect !== 'postgres')
    return {
      contractAdded: async (_id: number, _nameFolded: string) => undefined,
      contractRenamed: async (_id: number, _nameFolded: string) => undefined,
      partiesChanged: async (_contractId: number) => undefined,
      rebuild: async () => undefined,
    };
  const add = x.sql(
    'INSERT INTO contract_search (id, name, parties) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET name = excluded.name, parties = excluded.parties',
  );
  const rename = x.sql('UPDATE contract_search SET name = ? WHERE id = ?');
  // The row is locked before the parties are read: two transactions adding parties to one contract
  // take turns, and the second reads the first's party (a statement after a wait sees what committed).
  const lock = x.sql('SELECT id FROM contract_search WHERE id = ? FOR UPDATE');
  const partiesOf = x.sql<PartyText>(
    'SELECT name, email, mobile_phone AS "mobilePhone" FROM parties WHERE contract_id = ? ORDER BY id',
  );
  const setParties = x.sql('UPDATE contract_search SET parties = ? WHERE id = ?');
  const contractsAfter = x.sql<{ id: number; name: string }>(
    'SELECT id, name_folded AS name FROM contracts WHERE id > ? ORDER BY id LIMIT 500',
  );
  const partiesOfMany = x.sql<PartyText & { contractId: number }>(
    `SELECT contract_id AS "contractId", name, email, mobile_phone AS "mobilePhone" FROM parties
     WHERE contract_id = ANY(?::bigint[]) ORDER BY id`,
  );
  const addMany = x.sql(
    'INSERT INTO contract_search (id, name, parties) SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[])',
  );
  const clear = x.sql('DELETE FROM contract_search');

  return {
    contractAdded: async (id: number, nameFolded: string): Promise<void> => {
      await add.run([id, nameFolded, '']);
    },
    contractRenamed: async (id: number, nameFolded: string): Promise<void> => {
      await rename.run([nameFolded, id]);
    },
    /** A party of the contract was added, changed or removed: its parties' text is read again. */
    partiesChanged: async (contractId: number): Promise<void> => {
      if ((await lock.all([contractId])).length === 0) return;
      await setParties.run([partiesText(await partiesOf.all([contractId])), contractId]);
    },
    /** The whole search text made again from the rows (after a copy into PostgreSQL: copy-tables.ts). */
    async rebuild(): Promise<void> {
      await clear.run();
      let after = 0;
      for (;;) {
        const contracts = await contractsAfter.all([after]);
        if (contracts.length === 0) return;
        const ids = contracts.map((row) => Number(row.id));
        const byContract = new Map<number, PartyText[]>();
        for (const party of await partiesOfMany.all([ids]))
          byContract.set(Number(party.contractId), [...(byContract.get(Number(party.contractId)) ?? []), party]);
        await addMany.run([
          ids,
          contracts.map((row) => row.name),
          ids.map((id) => partiesText(byContract.get(id) ?? [])),
        ]);
        after = ids.at(-1)!;
      }
    },
  };
}

export type SearchText = ReturnType<typeof createSearchText>;
