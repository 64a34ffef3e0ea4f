import { createHash } from 'node:crypto';
import type { SQLWrapper } from 'drizzle-orm';
import type * as schema from './schema';
import type { Db, SqliteDatabase } from './database';
import type { PgDatabase } from './pg/pg-database';

/** The tables of the dialect at hand, typed as SQLite's (both dialects' rows are the same JavaScript). */
export type Tables = typeof schema;

/** A statement's parameters: positional (`?`) or by name (`@name` in plain SQL, placeholders in drizzle). */
export type Params = readonly unknown[] | Record<string, unknown>;

/** A statement prepared once and run many times. */
export type Statement<Row> = {
  get(params?: Params): Promise<Row | undefined>;
  all(params?: Params): Promise<Row[]>;
  run(params?: Params): Promise<{ changes: number }>;
};

/** A drizzle query as the repositories build it; run through the store. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- drizzle's builders of every shape
type AnyQuery = SQLWrapper & Record<string, any>;

/** Plain SQL that differs between the dialects. */
export type DialectSql = { sqlite: string; postgres: string };

/**
 * What a repository is given: the statements of either dialect behind one shape. Repositories
 * build queries with drizzle's builder (`orm`, over `t`'s tables: SQLite's in the types; at run
 * time PostgreSQL's on PostgreSQL, the same calls) or write plain SQL that both dialects read
 * (`?` or `@name` parameters; a `DialectSql` where they differ). Nothing here knows a request:
 * a statement runs in the caller's transaction when there is one (database.ts, pg-database.ts).
 */
export type Store = {
  readonly dialect: 'sqlite' | 'postgres';
  readonly orm: Db;
  readonly t: Tables;
  /** Whether the caller runs inside a transaction of this store's database (Database.isInTransaction). */
  isInTransaction(): boolean;
  /** A drizzle query built once with `sql.placeholder`s, run with their values. */
  prepare<Row>(build: (orm: Db, t: Tables) => AnyQuery): Statement<Row>;
  /** Plain SQL, prepared once. */
  sql<Row = Record<string, unknown>>(text: string | DialectSql): Statement<Row>;
  /** A drizzle query built for one run (its shape depends on the call). */
  all<Row>(query: AnyQuery): Promise<Row[]>;
  get<Row>(query: AnyQuery): Promise<Row | undefined>;
  run(query: AnyQuery): Promise<{ changes: number }>;
};

const textOf = (text: string | DialectSql, dialect: 'sqlite' | 'postgres') =>
  typeof text === 'string' ? text : text[dialect];

/** SQLite: better-sqlite3's synchronous statements, each run in its turn on the connection. */
export function createSqliteStore(database: SqliteDatabase, t: Tables): Store {
  const { orm, sqlite } = database;
  const bind = (params: Params | undefined): unknown[] =>
    params === undefined ? [] : Array.isArray(params) ? [...params] : [params];
  return {
    dialect: 'sqlite',
    orm,
    t,
    isInTransaction: () => database.isInTransaction(),
    prepare<Row>(build: (orm: Db, t: Tables) => AnyQuery): Statement<Row> {
      const prepared = build(orm, t).prepare();
      const values = (params: Params | undefined) => (params ?? {}) as Record<string, unknown>;
      return {
        get: (params) => database.run(() => prepared.get(values(params)) as Row | undefined),
        all: (params) => database.run(() => prepared.all(values(params)) as Row[]),
        run: (params) => database.run(() => ({ changes: prepared.run(values(params)).changes as number })),
      };
    },
    sql<Row>(text: string | DialectSql): Statement<Row> {
      const prepared = sqlite.prepare(textOf(text, 'sqlite'));
      return {
        get: (params) => database.run(() => prepared.get(...bind(params)) as Row | undefined),
        all: (params) => database.run(() => prepared.all(...bind(params)) as Row[]),
        run: (params) => database.run(() => ({ changes: prepared.run(...bind(params)).changes })),
      };
    },
    all: (query) => database.run(() => query.all()),
    get: (query) => database.run(() => query.get()),
    run: (query) => database.run(() => ({ changes: query.run().changes as number })),
  };
}

/** `?` and `@name` parameters as PostgreSQL's `$1…`, outside string literals and quoted names. */
export function toPgParameters(text: string): { text: string; names: string[] | undefined; count: number } {
  let out = '';
  let count = 0;
  const names: string[] = [];
  const numbered = new Map<string, number>();
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, i + 1);
      const stop = end === -1 ? text.length : end;
      out += text.slice(i, stop + 1);
      i = stop;
      continue;
    }
    if (char === '?') {
      count += 1;
      out += `$${count}`;
      continue;
    }
    const named = char === '@' ? /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i)) : null;
    if (named) {
      const name = named[1]!;
      let index = numbered.get(name);
      if (index === undefined) {
        names.push(name);
        index = names.length;
        numbered.set(name, index);
      }
      out += `$${index}`;
      i += name.length;
      continue;
    }
    out += char;
  }
  if (count > 0 && names.length > 0) throw new Error('a statement takes ? or @name parameters, not both');
  return { text: out, names: names.length > 0 ? names : undefined, count: count + names.length };
}

const statementName = (text: string) => `sd_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;

/** PostgreSQL: node-postgres on the caller's transaction or the pool, statements named (prepared per connection). */
export function createPgStore(database: PgDatabase, orm: Db, t: Tables): Store {
  const { client } = database;
  return {
    dialect: 'postgres',
    orm,
    t,
    isInTransaction: () => database.isInTransaction(),
    prepare<Row>(build: (orm: Db, t: Tables) => AnyQuery): Statement<Row> {
      const query = build(orm, t);
      const prepared = query.prepare(statementName(query.toSQL().sql));
      const execute = (params: Params | undefined) => prepared.execute((params ?? {}) as Record<string, unknown>);
      return {
        get: async (params) => ((await execute(params)) as Row[])[0],
        all: async (params) => (await execute(params)) as Row[],
        run: async (params) => ({ changes: ((await execute(params)) as { rowCount: number | null }).rowCount ?? 0 }),
      };
    },
    sql<Row>(given: string | DialectSql): Statement<Row> {
      const { text, names } = toPgParameters(textOf(given, 'postgres'));
      const name = statementName(text);
      const values = (params: Params | undefined): unknown[] => {
        if (params === undefined) return [];
        if (Array.isArray(params)) return [...params];
        const byName = params as Record<string, unknown>;
        return (names ?? []).map((key) => byName[key]);
      };
      const query = (params: Params | undefined) => client.query({ name, text, values: values(params) });
      return {
        get: async (params) => (await query(params)).rows[0] as Row | undefined,
        all: async (params) => (await query(params)).rows as Row[],
        run: async (params) => ({ changes: (await query(params)).rowCount ?? 0 }),
      };
    },
    all: async (query) => (await query) as never,
    get: async (query) => ((await query) as unknown as unknown[])[0] as never,
    run: async (query) => ({ changes: ((await query) as unknown as { rowCount: number | null }).rowCount ?? 0 }),
  };
}
