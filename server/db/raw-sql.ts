import { sqliteOf, type Database } from './database';

/** A row as SQL gives it: column names (or their aliases) to values. */
export type SqlRow = Record<string, unknown>;

/**
 * Plain SQL on the office's database, for tests, benchmarks and tools that look beneath the
 * repositories (a tampering insider, a count of rows). Parameters are `?`; every call waits for
 * its turn on the connection like a repository's. The domain never uses this: it goes through
 * the repositories.
 */
export type RawSql = {
  get<T = SqlRow>(text: string, ...params: unknown[]): Promise<T | undefined>;
  all<T = SqlRow>(text: string, ...params: unknown[]): Promise<T[]>;
  run(text: string, ...params: unknown[]): Promise<{ changes: number }>;
};

export function rawSql(db: Database): RawSql {
  const sqlite = sqliteOf(db);
  const statement = (text: string) => sqlite.sqlite.prepare(text);
  return {
    get: <T>(text: string, ...params: unknown[]) => sqlite.run(() => statement(text).get(...params) as T | undefined),
    all: <T>(text: string, ...params: unknown[]) => sqlite.run(() => statement(text).all(...params) as T[]),
    run: (text: string, ...params: unknown[]) =>
      sqlite.run(() => ({ changes: statement(text).run(...params).changes })),
  };
}
