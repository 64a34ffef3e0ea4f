import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import * as schema from './schema';
import { makePrivate } from './data-dir';
import { createSqliteDatabase, type Db, type SqliteDatabase } from './database';

export type { Db } from './database';
export { inTransaction } from './database';

export type OpenedDatabase = {
  /** The connection behind its turns (database.ts): every statement goes through it. */
  db: SqliteDatabase;
  sqlite: Database.Database;
  /** Checkpoints the WAL into the main file and closes the connection. */
  close(): void;
};

/** `sd_fold(text)`: the case folding of searches, the same as the contract name's `name_folded`. */
export const FOLD_FUNCTION = 'sd_fold';

export const DEFAULT_MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type OpenDatabaseOptions = {
  migrationsFolder?: string;
  /** better-sqlite3's addon built for another runtime (the Electron shell in development). */
  nativeBinding?: string;
};

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): OpenedDatabase {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  // Before the WAL exists: SQLite gives the -wal and -shm files the database file's mode.
  makePrivate(file);
  sqlite.pragma('journal_mode = WAL');
  for (const beside of [`${file}-wal`, `${file}-shm`]) makePrivate(beside);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // JavaScript's case folding (SQLite's lower() folds ASCII only): Åsa finds åsa in searches.
  sqlite.function(FOLD_FUNCTION, { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
  const orm = drizzle(sqlite, { schema }) as Db;
  migrate(orm, { migrationsFolder: options.migrationsFolder ?? DEFAULT_MIGRATIONS_FOLDER });
  // A statement inside a transaction keeps a journal of the pages it changes, to undo itself
  // alone; past 64 KiB (a contract's row touches some thirty index pages) SQLite moved it to a
  // file of the system's temporary folder, made and removed within every upload: a full /tmp
  // failed the upload with a 500, and pages of the office's data went outside DATA_DIR. In
  // memory it holds the pages one statement changes (an upload's row: some thirty) while that
  // statement runs. Set after the migrations, whose index builds may sort more than memory should hold.
  sqlite.pragma('temp_store = MEMORY');
  let isClosed = false;
  return {
    db: createSqliteDatabase(orm),
    sqlite,
    close() {
      if (isClosed) return;
      isClosed = true;
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.close();
    },
  };
}
