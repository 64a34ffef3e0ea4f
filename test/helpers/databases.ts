import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
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

/** The master key test servers on PostgreSQL are given (SIGNDESK_MASTER_KEY): 32 bytes, base64. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7).toString('base64');

const PG_MIGRATIONS = path.join(import.meta.dirname, '..', '..', 'server', 'db', 'migrations-pg');

/** A migrated database that test databases are copied from (CREATE DATABASE … TEMPLATE), named by the migrations. */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(PG_MIGRATIONS).sort())
    if (file.endsWith('.sql')) hash.update(file).update(fs.readFileSync(path.join(PG_MIGRATIONS, file)));
  return `sd_template_${hash.digest('hex').slice(0, 12)}`;
}

function psql(sql: string): string {
  return execFileSync('psql', [testPostgresUrl(), '-v', 'ON_ERROR_STOP=1', '-qAtc', sql], { encoding: 'utf8' }).trim();
}

/** Makes the template once per test server (the global setup runs this before the PostgreSQL pass). */
export async function prepareTestTemplate(): Promise<void> {
  const name = templateName();
  if (psql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`) === '1') return;
  const building = `${name}_building_${randomBytes(3).toString('hex')}`;
  psql(`CREATE DATABASE ${building}`);
  const db = await openPostgres(databaseUrl(building));
  await db.close();
  try {
    psql(`ALTER DATABASE ${building} RENAME TO ${name}`);
    psql(`ALTER DATABASE ${name} IS_TEMPLATE true`);
  } catch {
    // Another run made it meanwhile.
    psql(`DROP DATABASE IF EXISTS ${building}`);
  }
}

const made = new Set<string>();

/**
 * The environment that puts a test's DATA_DIR on the backend under test: nothing for SQLite; for
 * PostgreSQL DATABASE_URL (a database of its own for each DATA_DIR, made from the template at
 * first use, the same one again when the test restarts a server on that DATA_DIR) and the
 * master key.
 */
export function testDatabaseEnv(dataDir: string): Record<string, string> {
  if (testBackend() !== 'postgres') return {};
  const name = `sd_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 20)}`;
  if (!made.has(name)) {
    if (psql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`) !== '1') {
      const template = templateName();
      const hasTemplate = psql(`SELECT 1 FROM pg_database WHERE datname = '${template}'`) === '1';
      psql(`CREATE DATABASE ${name}${hasTemplate ? ` TEMPLATE ${template}` : ''}`);
    }
    made.add(name);
  }
  return { DATABASE_URL: databaseUrl(name), SIGNDESK_MASTER_KEY: TEST_MASTER_KEY };
}
