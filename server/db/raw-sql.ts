import { sqliteOf, type Database } from './database';
import type { PgDatabase } from './pg/pg-database';
import { toPgParameters } from './store';

/** A row as SQL gives it: column names (or their aliases) to values. */
export type SqlRow = Record<string, unknown>;

/**
 * Plain SQL on the office's database, for tests, benchmarks and tools that look beneath the
 * repositories (a tampering insider, a count of rows). Parameters are `?`; every call waits for
 * its turn on the connection like a repository's. The domain never uses this: it goes through
 * the repositories.
 *
 * On PostgreSQL the same text runs with `?` made `$1…`, and a boolean comes back as SQLite gives
 * it (1 or 0), so that a check written once reads both; the SQL itself must be what both accept.
 */
export type RawSql = {
  get<T = SqlRow>(text: string, ...params: unknown[]): Promise<T | undefined>;
  all<T = SqlRow>(text: string, ...params: unknown[]): Promise<T[]>;
  run(text: string, ...params: unknown[]): Promise<{ changes: number }>;
};

export function rawSql(db: Database): RawSql {
  return db.dialect === 'postgres' ? rawPgSql(db as PgDatabase) : rawSqliteSql(db);
}

function rawSqliteSql(db: Database): RawSql {
  const sqlite = sqliteOf(db);
  const statement = (text: string) => sqlite.sqlite.prepare(text);
  return {
    get: <T>(text: string, ...params: unknown[]) => sqlite.run(() => statement(text).get(...params) as T | undefined),
    all: <T>(text: string, ...params: unknown[]) => sqlite.run(() => statement(text).all(...params) as T[]),
    run: (text: string, ...params: unknown[]) =>
      sqlite.run(() => ({ changes: statement(text).run(...params).changes })),
  };
}

function asSqliteGives(row: SqlRow): SqlRow {
  const out: SqlRow = {};
  for (const [key, value] of Object.entries(row)) out[key] = typeof value === 'boolean' ? Number(value) : value;
  return out;
}

function rawPgSql(db: PgDatabase): RawSql {
  const query = async (text: string, params: unknown[]) => {
    const result = await db.client.query(toPgParameters(text).text, params.map(asPgParameter));
    return { rows: (result.rows as SqlRow[]).map(asSqliteGives), changes: result.rowCount ?? 0 };
  };
  return {
    get: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows[0] as T | undefined,
    all: async <T>(text: string, ...params: unknown[]) => (await query(text, params)).rows as T[],
    run: async (text: string, ...params: unknown[]) => ({ changes: (await query(text, params)).changes }),
  };
}

/** bigint parameters as PostgreSQL's text for int8 (node-postgres sends numbers and strings as they are). */
function asPgParameter(value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
