import { getTableColumns, sql, type Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Statement, Store } from './store';

const MAX_SHAPES = 64;

/**
 * `insert(table).values(row).returning()`, with the statement prepared once per set of columns
 * given (the rest take their defaults, as in the query drizzle would build): drizzle builds (and
 * SQLite prepares) an insert anew on every call otherwise, which for a contract cost more than
 * the insert itself. `table` is the store's own (`x.t.…`), so that values map as its dialect's.
 */
export function createPreparedInsert<T extends SQLiteTable>(x: Store, table: T) {
  const columns = getTableColumns(table) as Record<string, Column>;
  // A default computed in JavaScript would be computed once, when the statement is prepared.
  const computed = Object.entries(columns).filter(([, column]) => column.defaultFn || column.onUpdateFn);
  if (computed.length > 0)
    throw new Error(`prepared inserts cannot fill computed defaults (${computed.map(([key]) => key).join(', ')})`);
  const statements = new Map<string, Statement<T['$inferSelect']>>();
  return async (row: T['$inferInsert']): Promise<T['$inferSelect']> => {
    const given = Object.entries(row as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const shape = given.map(([key]) => key).join(',');
    let statement = statements.get(shape);
    if (!statement) {
      if (statements.size >= MAX_SHAPES) statements.clear();
      const placeholders = Object.fromEntries(given.map(([key]) => [key, sql.placeholder(key)]));
      statement = x.prepare<T['$inferSelect']>((orm) =>
        orm
          .insert(table)
          .values(placeholders as T['$inferInsert'])
          .returning(),
      );
      statements.set(shape, statement);
    }
    // Placeholders skip drizzle's value mapping (booleans to 0/1, JSON, …): map as it would.
    const params: Record<string, unknown> = {};
    for (const [key, value] of given) {
      const column = columns[key];
      params[key] = value === null || !column ? value : column.mapToDriverValue(value);
    }
    const inserted = await statement.get(params);
    if (!inserted) throw new Error('an insert returned no row');
    return inserted;
  };
}
