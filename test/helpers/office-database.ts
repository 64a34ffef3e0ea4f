import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openDatabase } from '../../server/db/open-database';
import { openPostgres } from '../../server/db/pg/open-postgres';
import { rawSql, type RawSql } from '../../server/db/raw-sql';
import { testBackend, testDatabaseEnv } from './databases';

/**
 * The office's database as an insider opens it beside (or instead of) the server: signdesk.sqlite
 * in DATA_DIR, or the PostgreSQL database the tests give that DATA_DIR.
 */
export async function openOfficeDatabase(dataDir: string): Promise<{ sql: RawSql; close(): Promise<void> }> {
  if (testBackend() === 'postgres') {
    const db = await openPostgres(testDatabaseEnv(dataDir).DATABASE_URL!);
    return { sql: rawSql(db), close: () => db.close() };
  }
  const opened = openDatabase(path.join(dataDir, 'signdesk.sqlite'));
  return { sql: rawSql(opened.db), close: async () => opened.close() };
}

/**
 * What an insider with the database server reads of the office: pg_dump's text (bytea as hex) on
 * PostgreSQL; nothing on SQLite, whose database is a file in DATA_DIR.
 */
export function databaseDump(dataDir: string): string {
  if (testBackend() !== 'postgres') return '';
  return execFileSync('pg_dump', [testDatabaseEnv(dataDir).DATABASE_URL!], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
}
