import { getTableColumns, sql, type Column } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './open-database';

const MAX_SHAPES = 64;

/**
 * `db.insert(table).values(row).returning().get()`, with the statement prepared once per set
 * of columns given (the rest take their defaults, as in the query drizzle would build): drizzle
 * builds and SQLite prepares an insert anew on every call otherwise, which for a contract cost
 * more than the insert itself.
 */
export function createPreparedInsert<T extends SQLiteTable>(db: Db, table: T) {
  const columns = getTableColumns(table) as Record<string, Column>;
  // A default computed in JavaScript would be computed once, when the statement is prepared.
  const computed = Object.entries(columns).filter(([, column]) => column.defaultFn || column.onUpdateFn);
  if (computed.length > 0)
    throw new Error(`prepared inserts cannot fill computed defaults (${computed.map(([key]) => key).join(', ')})`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's prepared query type depends on the shape
  const statements = new Map<string, { get: (params: Record<string, unknown>) => any }>();
  return (row: T['$inferInsert']): T['$inferSelect'] => {
    const given = Object.entries(row as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const shape = given.map(([key]) => key).join(',');
    let statement = statements.get(shape);
    if (!statement) {
      if (statements.size >= MAX_SHAPES) statements.clear();
      const placeholders = Object.fromEntries(given.map(([key]) => [key, sql.placeholder(key)]));
      statement = db
        .insert(table)
        .values(placeholders as T['$inferInsert'])
        .returning()
        .prepare();
      statements.set(shape, statement);
    }
    // Placeholders skip drizzle's value mapping (booleans to 0/1, JSON, …): map as it would.
    const params: Record<string, unknown> = {};
    for (const [key, value] of given) {
      const column = columns[key];
      params[key] = value === null || !column ? value : column.mapToDriverValue(value);
    }
    return statement.get(params) as T['$inferSelect'];
  };
}
