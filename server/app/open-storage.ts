import type { Config } from '../config/config';
import { createFileKeyStore } from '../crypto/file-key-store';
import type { KeyStore } from '../crypto/key-store';
import { readMasterKey } from '../crypto/master-key';
import type { Database } from '../db/database';
import type { DataDirLayout } from '../db/data-dir';
import { openDatabase } from '../db/open-database';
import { openPostgres } from '../db/pg/open-postgres';
import { openDatabaseKeyStore } from '../secrets/database-key-store';

/** The office's database, whichever engine holds it, migrated and ready. */
export type Storage = {
  db: Database;
  /** The office's keys: DATA_DIR/keys beside SQLite, rows sealed with the master key on PostgreSQL. */
  keys: KeyStore;
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
 * the one place the engine is chosen. On PostgreSQL the master key is read before the database
 * is reached and must open the database's keys: a missing, malformed or wrong one is a
 * MasterKeyError here, at start, and nothing else happens.
 */
export async function openStorage(
  config: Config,
  paths: DataDirLayout,
  options: StorageOptions = {},
): Promise<Storage> {
  if (config.database.kind === 'postgres') {
    const masterKey = readMasterKey(config.database.masterKey);
    const db = await openPostgres(config.database.url, {
      pool: { max: config.database.poolMax },
      ...(options.pgMigrationsFolder ? { migrationsFolder: options.pgMigrationsFolder } : {}),
    });
    let keys: KeyStore;
    try {
      keys = await openDatabaseKeyStore(db, masterKey);
    } catch (error) {
      await db.close();
      throw error;
    }
    return { db, keys, close: () => db.close() };
  }
  const opened = openDatabase(paths.database, {
    ...(options.migrationsFolder ? { migrationsFolder: options.migrationsFolder } : {}),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
  return { db: opened.db, keys: createFileKeyStore(paths.keys), close: async () => opened.close() };
}
