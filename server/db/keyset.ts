import { and, asc, desc, eq, gt, gte, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

export type CursorValue = string | number | boolean;

/** One column of a keyset ordering. The last key of a list must be unique (the id). */
export type SortKey<Row> = {
  column: SQLiteColumn;
  isDescending: boolean;
  valueOf: (row: Row) => CursorValue;
};

export type KeysetRequest = {
  /** Sort values of the row the page starts after (forward) or ends before (backward). */
  after?: readonly CursorValue[];
  isBackward: boolean;
  limit: number;
};

export type KeysetPage<Row> = {
  rows: Row[];
  /** More rows lie beyond this page in the walking direction. */
  hasMore: boolean;
  /** Sort values of the first and last row shown, for the previous and next page tokens. */
  firstValues: CursorValue[] | undefined;
  lastValues: CursorValue[] | undefined;
};

function comparison(column: SQLiteColumn, value: CursorValue, isGreater: boolean): SQL {
  return isGreater ? gt(column, value) : lt(column, value);
}

/** Rows strictly beyond the cursor in the walking direction. */
export function keysetCondition<Row>(
  keys: readonly SortKey<Row>[],
  values: readonly CursorValue[],
  isBackward: boolean,
): SQL | undefined {
  const isGreater = (key: SortKey<Row>) => key.isDescending === isBackward;
  const allSameDirection = keys.every((key) => key.isDescending === keys[0]?.isDescending);
  if (allSameDirection && keys.length > 1 && keys[0]) {
    // A row-value comparison lets SQLite seek the composite index directly.
    const columns = sql.join(
      keys.map((key) => sql`${key.column}`),
      sql`, `,
    );
    const params = sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
    return isGreater(keys[0]) ? sql`(${columns}) > (${params})` : sql`(${columns}) < (${params})`;
  }
  const branches = keys.map((key, index) => {
    const equalities = keys.slice(0, index).map((prior, j) => eq(prior.column, values[j] as CursorValue));
    return and(...equalities, comparison(key.column, values[index] as CursorValue, isGreater(key)));
  });
  const first = keys[0];
  if (!first || keys.length === 1) return or(...branches);
  // Mixed directions cannot use a row value; a bound on the first key still lets SQLite seek.
  const value = values[0] as CursorValue;
  return and(isGreater(first) ? gte(first.column, value) : lte(first.column, value), or(...branches));
}

export function keysetOrder<Row>(keys: readonly SortKey<Row>[], isBackward: boolean): SQL[] {
  return keys.map((key) => (key.isDescending === isBackward ? asc(key.column) : desc(key.column)));
}

/**
 * Runs a keyset page: `select(where, orderBy, limit)` builds the resource's own query; this
 * adds the cursor condition and order, reads one row more to know whether more follow, and
 * returns rows in display order.
 */
export async function fetchKeysetPage<Row>(
  keys: readonly SortKey<Row>[],
  request: KeysetRequest,
  filter: SQL | undefined,
  select: (where: SQL | undefined, orderBy: SQL[], limit: number) => Promise<Row[]>,
): Promise<KeysetPage<Row>> {
  const cursor = request.after ? keysetCondition(keys, request.after, request.isBackward) : undefined;
  const rows = await select(and(filter, cursor), keysetOrder(keys, request.isBackward), request.limit + 1);
  const hasMore = rows.length > request.limit;
  if (hasMore) rows.length = request.limit;
  if (request.isBackward) rows.reverse();
  const valuesOf = (row: Row | undefined) => (row === undefined ? undefined : keys.map((key) => key.valueOf(row)));
  return { rows, hasMore, firstValues: valuesOf(rows[0]), lastValues: valuesOf(rows.at(-1)) };
}
