import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../server/db/database';
import { openDatabase } from '../../server/db/open-database';
import { openPostgres } from '../../server/db/pg/open-postgres';
import { storeOf } from '../../server/db/stores';
import type { Store } from '../../server/db/store';
import { makeTempDir } from './server';

export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/**
 * The PostgreSQL server the tests use: SIGNDESK_TEST_PG_URL names a role that may create
 * databases (`npm test` starts a throwaway cluster and sets it: scripts/test-postgres.mjs).
 */
export function testPostgresUrl(): string {
  const url = process.env.SIGNDESK_TEST_PG_URL;
  if (!url)
    throw new Error(
      'SIGNDESK_TEST_PG_URL is not set: run the tests with npm test (it starts PostgreSQL), or point it at a PostgreSQL role that may create databases',
    );
  return url;
}

/** The backend the integration tests run on: SIGNDESK_TEST_BACKEND, SQLite unless it says postgres. */
export function testBackend(): Dialect {
  return process.env.SIGNDESK_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

/** `postgres://…/<name>` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(testPostgresUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new, empty PostgreSQL database on the test server; its URL. */
export async function createTestPostgresDatabase(prefix = 'sd_test'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testPostgresUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(name);
}

export type TestDatabase = { dialect: Dialect; db: Database; store: Store; close(): Promise<void> };

/** A fresh, migrated database of either dialect, for tests of the storage layer itself. */
export async function openTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const opened = openDatabase(path.join(makeTempDir(), 'test.sqlite'));
    return { dialect, db: opened.db, store: storeOf(opened.db), close: async () => opened.close() };
  }
  const db = await openPostgres(await createTestPostgresDatabase());
  return { dialect, db, store: storeOf(db), close: () => db.close() };
}
