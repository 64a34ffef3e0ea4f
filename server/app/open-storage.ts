import type { Config } from '../config/config';
import type { Database } from '../db/database';
import type { DataDirLayout } from '../db/data-dir';
import { openDatabase } from '../db/open-database';
import { openPostgres } from '../db/pg/open-postgres';

/** The office's database, whichever engine holds it, migrated and ready. */
export type Storage = {
  db: Database;
  /** Checkpoints (SQLite) or ends the pool (PostgreSQL). */
  close(): Promise<void>;
};

export type StorageOptions = {
  /** SQLite's migrations (the bundled server passes its own copy). */
  migrationsFolder?: string | undefined;
  /** PostgreSQL's migrations, likewise. */
  pgMigrationsFolder?: string | undefined;
  /** better-sqlite3's addon for another runtime (the desktop app's). */
  nativeBinding?: string | undefined;
};

/**
 * SQLite in DATA_DIR, or the PostgreSQL database of DATABASE_URL (docs/decisions.md, "Storage"):
 * the one place the engine is chosen.
 */
export async function openStorage(config: Config, paths: DataDirLayout, options: StorageOptions = {}): Promise<Storage> {
  if (config.database.kind === 'postgres') {
    const db = await openPostgres(config.database.url, {
      pool: { max: config.database.poolMax },
      ...(options.pgMigrationsFolder ? { migrationsFolder: options.pgMigrationsFolder } : {}),
    });
    return { db, close: () => db.close() };
  }
  const opened = openDatabase(paths.database, {
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  return { db: opened.db, close: async () => opened.close() };
}
