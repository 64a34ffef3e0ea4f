import path from 'node:path';
import { getTableConfig, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/open-database';
import { openPostgres } from '../../server/db/pg/open-postgres';
import * as schema from '../../server/db/schema';
import { createTestPostgresDatabase } from '../helpers/databases';
import { makeTempDir } from '../helpers/server';

/**
 * The two dialects' migrations come from one schema (server/db/pg/schema.ts derives PostgreSQL's
 * tables from SQLite's): migrated fresh, both databases must hold the same tables, columns (of
 * matching types, nullability and defaults), primary and foreign keys and indexes. A migration
 * made for one dialect only, or a PostgreSQL table missing from server/db/pg/tables.ts, fails here.
 */

type Column = { type: string; notNull: boolean; default: string | null };
type Index = { columns: string; unique: boolean; where: string | null };
type Shape = {
  tables: Record<string, Record<string, Column>>;
  primaryKeys: Record<string, string>;
  foreignKeys: string[];
  indexes: Record<string, Index>;
};

/** SQLite's own search index (FTS5, its shadow tables, the view and triggers that feed it) has no PostgreSQL twin by design. */
const SQLITE_ONLY = /^(contract_search(_\w+)?|__drizzle_migrations|sqlite_\w+)$/;
/** PostgreSQL's own search indexes (pg_trgm) likewise. */
const POSTGRES_ONLY_INDEX = /_trgm$/;
/**
 * PostgreSQL's twin of SQLite's contract_search (migrations-pg/0001): a plain table of folded text
 * under pg_trgm indexes, written by the repositories, where SQLite has its FTS5 table and triggers.
 */
const POSTGRES_ONLY_TABLE = /^contract_search$/;

const BOOLEANS = new Set<string>();
for (const table of Object.values(schema)) {
  let config: ReturnType<typeof getTableConfig>;
  try {
    config = getTableConfig(table as SQLiteTable);
  } catch {
    continue;
  }
  for (const column of config.columns)
    if (column.columnType === 'SQLiteBoolean') BOOLEANS.add(`${config.name}.${column.name}`);
}

/** A default as both dialects can be compared: literals without casts and quotes' doubling. */
function normalDefault(value: string | null, isBoolean: boolean): string | null {
  if (value === null) return null;
  let text = value.replace(/::[a-z ]+$/, '').replace(/^\((.*)\)$/, '$1');
  if (isBoolean) text = text === '1' || text === 'true' ? 'true' : text === '0' || text === 'false' ? 'false' : text;
  return text;
}

const normalSql = (text: string | null) =>
  text === null ? null : text.replace(/[()"]/g, '').replace(/\s+/g, ' ').trim().toLowerCase();

function sqliteShape(file: string): Shape {
  const opened = openDatabase(file);
  const db = opened.sqlite;
  try {
    const shape: Shape = { tables: {}, primaryKeys: {}, foreignKeys: [], indexes: {} };
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[])
      .map((row) => row.name)
      .filter((name) => !SQLITE_ONLY.test(name));
    for (const table of tables) {
      const columns = db.prepare(`SELECT * FROM pragma_table_xinfo(?)`).all(table) as {
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
        hidden: number;
      }[];
      shape.tables[table] = {};
      const keys: string[] = [];
      for (const column of columns.sort((a, b) => a.name.localeCompare(b.name))) {
        const isBoolean = BOOLEANS.has(`${table}.${column.name}`);
        const type = isBoolean
          ? 'boolean'
          : { INTEGER: 'integer', TEXT: 'text', BLOB: 'bytes', REAL: 'real' }[column.type];
        shape.tables[table][column.name] = {
          type: type ?? column.type,
          notNull: column.notnull === 1 || column.pk > 0,
          default: normalDefault(column.dflt_value, isBoolean),
        };
        if (column.pk > 0) keys[column.pk - 1] = column.name;
      }
      shape.primaryKeys[table] = keys.join(',');
      for (const fk of db.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(table) as {
        from: string;
        table: string;
        to: string;
        on_delete: string;
      }[])
        shape.foreignKeys.push(`${table}.${fk.from} -> ${fk.table}.${fk.to} on delete ${fk.on_delete.toLowerCase()}`);
      const indexes = db.prepare('SELECT * FROM pragma_index_list(?)').all(table) as {
        name: string;
        unique: number;
        origin: string;
      }[];
      for (const index of indexes.filter((each) => each.origin === 'c')) {
        const columnsOf = (
          db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name) as {
            name: string;
          }[]
        ).map((row) => row.name);
        const sql = (
          db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(index.name) as {
            sql: string;
          }
        ).sql;
        const where = /\bWHERE\b(.*)$/is.exec(sql)?.[1] ?? null;
        shape.indexes[index.name] = {
          columns: columnsOf.join(','),
          unique: index.unique === 1,
          where: normalSql(where),
        };
      }
    }
    shape.foreignKeys.sort();
    return shape;
  } finally {
    opened.close();
  }
}

async function postgresShape(url: string): Promise<Shape> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const shape: Shape = { tables: {}, primaryKeys: {}, foreignKeys: [], indexes: {} };
    const columns = await client.query(
      `SELECT table_name, column_name, data_type, is_nullable, column_default, is_generated
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    );
    for (const row of columns.rows) {
      if (POSTGRES_ONLY_TABLE.test(row.table_name)) continue;
      const type = {
        bigint: 'integer',
        text: 'text',
        bytea: 'bytes',
        'double precision': 'real',
        boolean: 'boolean',
      }[row.data_type as string];
      (shape.tables[row.table_name] ??= {})[row.column_name] = {
        type: type ?? row.data_type,
        notNull: row.is_nullable === 'NO',
        default: /^nextval|GENERATED/.test(row.column_default ?? '')
          ? null
          : normalDefault(row.column_default, row.data_type === 'boolean'),
      };
    }
    const keys = await client.query(
      `SELECT tc.table_name, tc.constraint_type, kcu.column_name, kcu.ordinal_position,
              ccu.table_name AS foreign_table, ccu.column_name AS foreign_column, rc.delete_rule
       FROM information_schema.table_constraints tc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema
       LEFT JOIN information_schema.referential_constraints rc ON rc.constraint_name = tc.constraint_name
       LEFT JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND tc.constraint_type = 'FOREIGN KEY'
       WHERE tc.table_schema = 'public' AND tc.constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')
       ORDER BY tc.table_name, kcu.ordinal_position`,
    );
    const primary: Record<string, string[]> = {};
    for (const row of keys.rows) {
      if (POSTGRES_ONLY_TABLE.test(row.table_name)) continue;
      if (row.constraint_type === 'PRIMARY KEY') (primary[row.table_name] ??= []).push(row.column_name);
      else
        shape.foreignKeys.push(
          `${row.table_name}.${row.column_name} -> ${row.foreign_table}.${row.foreign_column} on delete ${String(row.delete_rule).toLowerCase()}`,
        );
    }
    for (const table of Object.keys(shape.tables)) shape.primaryKeys[table] = (primary[table] ?? []).join(',');
    const indexes = await client.query(
      `SELECT i.relname AS name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
              pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
              (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum) AS columns
       FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_namespace ns ON ns.oid = i.relnamespace
       WHERE ns.nspname = 'public'`,
    );
    for (const row of indexes.rows) {
      if (row.is_primary || POSTGRES_ONLY_INDEX.test(row.name)) continue;
      shape.indexes[row.name] = { columns: row.columns ?? '', unique: row.is_unique, where: normalSql(row.predicate) };
    }
    shape.foreignKeys.sort();
    return shape;
  } finally {
    await client.end();
  }
}

describe('one schema, two dialects', () => {
  let sqlite: Shape;
  let postgres: Shape;
  beforeAll(async () => {
    sqlite = sqliteShape(path.join(makeTempDir(), 'drift.sqlite'));
    const url = await createTestPostgresDatabase('sd_drift');
    await (await openPostgres(url)).close();
    postgres = await postgresShape(url);
  });

  it('has the same tables, with the same columns, types, nullability and defaults', () => {
    expect(Object.keys(postgres.tables).sort()).toEqual(Object.keys(sqlite.tables).sort());
    for (const table of Object.keys(sqlite.tables)) expect(postgres.tables[table], table).toEqual(sqlite.tables[table]);
  });

  it('has the same primary and foreign keys', () => {
    expect(postgres.primaryKeys).toEqual(sqlite.primaryKeys);
    expect(postgres.foreignKeys).toEqual(sqlite.foreignKeys);
  });

  it('has the same indexes, partial ones with the same condition', () => {
    expect(postgres.indexes).toEqual(sqlite.indexes);
  });
});
