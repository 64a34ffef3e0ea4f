import type { Store } from '../store';

/**
 * How far a search looks (docs/decisions.md, "Contracts", search). The trigram index
 * (`contract_search`, kept by triggers in the rows' transaction) gives the contracts holding
 * the query's two rarest trigrams, newest first; each one's text is checked for the whole query,
 * and the newest SEARCH_WINDOW that hold it are the search's window. At most SEARCH_SCAN
 * candidates are checked. A query shorter than a trigram checks the newest SHORT_SEARCH_WINDOW
 * contracts. Filters, sorting, pages and counts then work within the window, so no search costs
 * more as the office grows.
 */
export const SEARCH_WINDOW = 1_000;
export const SEARCH_SCAN = 5_000;
export const SHORT_SEARCH_WINDOW = 1_000;
/**
 * A trigram's count of contracts is read up to FREQUENCY_CAP (enough to tell rare from common).
 * Counts from FREQUENCY_KEPT up are kept a while (they are the costly ones to read, and a common
 * trigram stays common); a rarer one is read afresh each time, which is cheap, so that a name
 * just added is found at once.
 */
const FREQUENCY_CAP = 20_000;
const FREQUENCY_KEPT = 500;
const FREQUENCY_TTL_MS = 10 * 60_000;
const FREQUENCY_ENTRIES = 50_000;

/** The folding of names and searches: name_folded and the index hold text folded the same way. */
export const foldName = (name: string): string => name.toLowerCase();

/** A trigram of a query, as an FTS5 expression: one string, within one column or any. */
type Gram = { expression: string; frequency: number };

/** A long query's trigrams are sampled: the rarest two of two dozen narrow it enough, and each costs a count. */
const MAX_GRAMS = 24;

/** The trigrams of `folded` (by code point, as the tokenizer splits), each once, at most MAX_GRAMS spread over it. */
function trigramsOf(folded: string): string[] {
  const points = Array.from(folded);
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= points.length; index += 1) grams.add(points.slice(index, index + 3).join(''));
  const all = [...grams];
  if (all.length <= MAX_GRAMS) return all;
  return Array.from({ length: MAX_GRAMS }, (_, index) => all[Math.floor((index * all.length) / MAX_GRAMS)] as string);
}

/** The index has no trigram to look up below three characters; it separates fields by line. */
const isIndexable = (folded: string): boolean => Array.from(folded).length >= 3 && !folded.includes('\n');

/**
 * SQLite's search (x.dialect 'sqlite'): the FTS5 table and its triggers are SQLite's own. Its
 * statements take their turn on the connection like any repository's (database.ts).
 */
export function createContractSearch(x: Store) {
  if (x.dialect !== 'sqlite') throw new Error("the trigram search index is SQLite's");
  const countUpTo = x.sql<{ n: number }>(
    'SELECT count(*) AS n FROM (SELECT rowid FROM contract_search WHERE contract_search MATCH ? LIMIT ?)',
  );
  const check = `(@name IS NULL OR instr(name, @name) > 0) AND (@q IS NULL OR instr(name, @q) > 0 OR instr(parties, @q) > 0)`;
  const candidates = x.sql<{ id: number }>(
    `SELECT id FROM (SELECT rowid AS id, name, parties FROM contract_search WHERE contract_search MATCH @match
       ORDER BY rowid DESC LIMIT ${SEARCH_SCAN}) WHERE ${check} LIMIT ${SEARCH_WINDOW}`,
  );
  const newest = x.sql<{ id: number }>(
    `SELECT id FROM (SELECT rowid AS id, name, parties FROM contract_search ORDER BY rowid DESC LIMIT ${SHORT_SEARCH_WINDOW})
       WHERE ${check}`,
  );
  // Whether a search left contracts unchecked: more contracts than the short window, more
  // candidates than the scan. Each counts one past its limit, no further.
  const isBeyondShortWindow = x.sql<{ isBeyond: number }>(
    `SELECT count(*) > ${SHORT_SEARCH_WINDOW} AS isBeyond FROM (SELECT rowid FROM contract_search LIMIT ${SHORT_SEARCH_WINDOW + 1})`,
  );
  const isBeyondScan = x.sql<{ isBeyond: number }>(
    `SELECT count(*) > ${SEARCH_SCAN} AS isBeyond FROM (SELECT rowid FROM contract_search WHERE contract_search MATCH ? LIMIT ${SEARCH_SCAN + 1})`,
  );
  const frequencies = new Map<string, { count: number; at: number }>();
  // A list request reads its window twice (page and total) and the admin UI's counts once more:
  // the last window is reused while nothing was written, here or by another connection.
  const writes = x.sql<{ changes: number; version: number }>(
    'SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version',
  );
  let last: ({ key: string } & SearchWindow) | undefined;
  const stateOf = async () => {
    const state = await writes.get();
    return `${state?.changes ?? 0}:${state?.version ?? 0}`;
  };

  /** How many contracts hold the trigram (up to the cap): read once, then kept a while. */
  const frequencyOf = async (expression: string): Promise<number> => {
    const now = Date.now();
    const known = frequencies.get(expression);
    if (known && now - known.at < FREQUENCY_TTL_MS) return known.count;
    const count = (await countUpTo.get([expression, FREQUENCY_CAP]))?.n ?? 0;
    if (count < FREQUENCY_KEPT) return count;
    if (frequencies.size >= FREQUENCY_ENTRIES) frequencies.clear();
    frequencies.set(expression, { count, at: now });
    return count;
  };

  const gramsOf = async (folded: string, column: string): Promise<Gram[]> => {
    const grams: Gram[] = [];
    for (const gram of trigramsOf(folded)) {
      const expression = `${column}"${gram.replaceAll('"', '""')}"`;
      grams.push({ expression, frequency: await frequencyOf(expression) });
    }
    return grams;
  };

  return {
    /**
     * The ids of the newest contracts whose name holds `name` and whose name or party holds
     * `q` (folded), newest first: at most SEARCH_WINDOW. Undefined when there is no search.
     */
    async findWindow(name: string | undefined, q: string | undefined): Promise<number[] | undefined> {
      return (await windowOf(name, q))?.ids;
    },
    /** Whether more contracts may match than the window holds (see SearchWindow). */
    async isPartial(name: string | undefined, q: string | undefined): Promise<boolean> {
      return (await windowOf(name, q))?.isPartial ?? false;
    },
  };

  async function windowOf(name: string | undefined, q: string | undefined): Promise<SearchWindow | undefined> {
    if (!name && !q) return undefined;
    const key = JSON.stringify([name ?? '', q ?? '', await stateOf()]);
    if (last?.key !== key) last = { key, ...(await findIds(name, q)) };
    return last;
  }

  async function findIds(name: string | undefined, q: string | undefined): Promise<SearchWindow> {
    const folded = { name: name ? foldName(name) : null, q: q ? foldName(q) : null };
    const grams = [
      ...(folded.name && isIndexable(folded.name) ? await gramsOf(folded.name, 'name : ') : []),
      ...(folded.q && isIndexable(folded.q) ? await gramsOf(folded.q, '') : []),
    ];
    if (grams.length === 0)
      return {
        ids: (await newest.all(folded)).map((row) => row.id),
        isPartial: (await isBeyondShortWindow.get())?.isBeyond === 1,
      };
    const rarest = grams.sort((a, b) => a.frequency - b.frequency).slice(0, 2);
    if ((rarest[0]?.frequency ?? 0) === 0) return { ids: [], isPartial: false };
    const match = rarest.map((gram) => gram.expression).join(' AND ');
    const ids = (await candidates.all({ match, ...folded })).map((row) => row.id);
    // Fewer candidates than the scan (the rarer trigram alone says so, mostly) were all checked.
    const isPartial =
      ids.length === SEARCH_WINDOW ||
      ((rarest[0]?.frequency ?? 0) > SEARCH_SCAN && (await isBeyondScan.get([match]))?.isBeyond === 1);
    return { ids, isPartial };
  }
}

/**
 * A search's window: the ids of its newest matches, and whether more contracts may match than
 * it holds (SEARCH_WINDOW matches found, SEARCH_SCAN candidates checked, or, for a query too
 * short for the index, more contracts than the newest SHORT_SEARCH_WINDOW it checked).
 */
type SearchWindow = { ids: number[]; isPartial: boolean };

export type ContractSearch = ReturnType<typeof createContractSearch>;
