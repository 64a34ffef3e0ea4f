import { and, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { FOLD_FUNCTION } from '../open-database';
import { contracts, parties } from '../schema';

/**
 * How far a search looks (docs/decisions.md, "Contracts", search). A search of three or more
 * characters reads the trigram index (`contract_search`, kept by triggers in the rows'
 * transaction) and considers the newest SEARCH_WINDOW contracts that match; a shorter one has no
 * trigram to look up and reads the newest SHORT_SEARCH_WINDOW contracts. Filters, sorting, pages
 * and counts then work within that window, so no search costs more as the office grows.
 */
export const SEARCH_WINDOW = 1_000;
export const SHORT_SEARCH_WINDOW = 1_000;

/** The folding of names and searches: name_folded and the index hold text folded the same way. */
export const foldName = (name: string): string => name.toLowerCase();

/** A trigram index finds a text of three or more characters; the index separates fields by line. */
const isIndexable = (folded: string): boolean => [...folded].length >= 3 && !folded.includes('\n');

/** An FTS5 string: the whole text as one phrase, which over trigrams means "holds this substring". */
const phrase = (folded: string): string => `"${folded.replaceAll('"', '""')}"`;

const fold = (column: SQLiteColumn) => sql`${sql.raw(FOLD_FUNCTION)}(${column})`;

/** The contract's folded name, or one of its parties' names, e-mails or phone numbers, holds `folded`. */
function matchesText(folded: string): SQL {
  return sql`(instr(${contracts.nameFolded}, ${folded}) > 0 OR EXISTS (SELECT 1 FROM ${parties} WHERE ${parties.contractId} = ${contracts.id}
    AND (instr(${fold(parties.name)}, ${folded}) > 0 OR instr(${fold(parties.email)}, ${folded}) > 0 OR instr(${parties.mobilePhone}, ${folded}) > 0)))`;
}

/** A search: the ids of its window (a subquery with one column, `id`) and what to check within it. */
export type ContractSearch = { window: SQL; checks: SQL | undefined };

/** The alias of the window in a query; a list or count joins contracts to it by id. */
export const WINDOW_ALIAS = 'search_window';

/**
 * The search of `name` (the contract's name holds it) and `q` (the name or a party's name,
 * e-mail or phone holds it): the window of ids the index finds, and a check within it of what
 * the index could not look up. Undefined when there is no search.
 */
export function findSearch(name: string | undefined, q: string | undefined): ContractSearch | undefined {
  const terms: string[] = [];
  const checks: SQL[] = [];
  if (name) {
    const folded = foldName(name);
    if (isIndexable(folded)) terms.push(`name : ${phrase(folded)}`);
    else checks.push(sql`instr(${contracts.nameFolded}, ${folded}) > 0`);
  }
  if (q) {
    const folded = foldName(q);
    if (isIndexable(folded)) terms.push(phrase(folded));
    else checks.push(matchesText(folded));
  }
  if (terms.length === 0 && checks.length === 0) return undefined;
  const window =
    terms.length > 0
      ? sql`(SELECT rowid AS id FROM contract_search WHERE contract_search MATCH ${terms.join(' AND ')} ORDER BY rowid DESC LIMIT ${SEARCH_WINDOW})`
      : sql`(SELECT id FROM contracts ORDER BY id DESC LIMIT ${SHORT_SEARCH_WINDOW})`;
  return { window: sql`${window} AS ${sql.raw(WINDOW_ALIAS)}`, checks: and(...checks) };
}
