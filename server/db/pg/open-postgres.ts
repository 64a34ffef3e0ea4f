import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import {
  createPgDatabase,
  createPgPool,
  DEFAULT_POOL_OPTIONS,
  type PgDatabase,
  type PgPoolOptions,
} from './pg-database';

export const DEFAULT_PG_MIGRATIONS_FOLDER = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'migrations-pg',
);

/** Held while one instance migrates: the others wait, then find nothing left to do. */
const MIGRATION_LOCK_KEY = 0x51_6e_44_6d; // "SnDm"

export class DatabaseUnreachable extends Error {}

/** The database's address without its password, for messages and logs. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString().replace(/^(postgres(?:ql)?:\/\/[^@/]*?):?@/, '$1@');
  } catch {
    return '(not a URL)';
  }
}

/**
 * Connects to the PostgreSQL database of DATABASE_URL and brings its schema up to this version
 * (the migrations of server/db/migrations-pg, one instance at a time). A database that cannot
 * be reached is a clear error, not a stack: the pool fails fast (connectionTimeout).
 */
export async function openPostgres(
  url: string,
  options: { pool?: Partial<PgPoolOptions>; migrationsFolder?: string } = {},
): Promise<PgDatabase> {
  const pool = createPgPool(url, { ...DEFAULT_POOL_OPTIONS, ...options.pool });
  let connection: pg.PoolClient;
  try {
    connection = await pool.connect();
  } catch (error) {
    await pool.end();
    throw new DatabaseUnreachable(
      `Cannot reach the PostgreSQL database ${describeDatabaseUrl(url)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client: connection }), {
        migrationsFolder: options.migrationsFolder ?? DEFAULT_PG_MIGRATIONS_FOLDER,
      });
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    connection.release();
    await pool.end();
    throw error;
  }
  connection.release();
  return createPgDatabase(pool);
}
