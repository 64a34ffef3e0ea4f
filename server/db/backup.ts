import fs from 'node:fs';
import Database from 'better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { copyTables, tablesInOrder } from './copy-tables';
import { inTransaction, sqliteOf, type Database as StorageDatabase } from './database';
import { storedFilePath } from './disk-file-store';
import { databaseFileStore } from './file-store';
import { DEFAULT_MIGRATIONS_FOLDER, openDatabase } from './open-database';
import { storeOf } from './stores';
import type { PgDatabase } from './pg/pg-database';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const REQUIRED_TABLES = ['__drizzle_migrations', 'office', 'users', 'api_tokens'];

/** Why a file cannot be restored; the message is shown to the admin as is. */
export class BackupRejected extends Error {
  constructor(
    message: string,
    readonly reason:
      'not-a-backup' | 'newer-version' | 'wrong-passphrase' | 'damaged' | 'truncated' | 'invalid' = 'invalid',
  ) {
    super(message);
  }
}

/**
 * What a backup carries apart from its database copy, whichever engine made it: the files' bytes
 * (its files/ entries, as DATA_DIR/files's) and the keys (its keys/ entries, in clear inside the
 * encrypted envelope, as DATA_DIR/keys's; on PostgreSQL sealed with a master key the backup
 * does not hold).
 */
const OUTSIDE_THE_COPY = ['file_chunks', 'sealed_keys'];

/**
 * A consistent copy of the live database as one self-contained SQLite file (no -wal beside it),
 * the one format of a backup whichever engine the office runs on: on SQLite, its online backup
 * API; on PostgreSQL, every table copied in one read-only snapshot into a fresh SQLite file of
 * the same schema. Requests go on meanwhile either way.
 */
export async function backupDatabase(db: StorageDatabase, destination: string): Promise<void> {
  if (db.dialect === 'postgres') {
    const copy = openDatabase(destination);
    try {
      await (db as PgDatabase).snapshot(() => copyTables(db, copy.db, undefined, OUTSIDE_THE_COPY));
    } finally {
      copy.close();
    }
  } else await sqliteOf(db).sqlite.backup(destination);
  const copy = new Database(destination);
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

function openCandidate(file: string): Database.Database {
  const head = Buffer.alloc(SQLITE_MAGIC.length);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.equals(SQLITE_MAGIC)) throw new BackupRejected('The file is not an SQLite database.');
  try {
    return new Database(file, { fileMustExist: true });
  } catch {
    throw new BackupRejected('The file is not a readable SQLite database.');
  }
}

function checkCandidate(candidate: Database.Database, migrationsFolder: string): void {
  let check: unknown;
  try {
    check = candidate.pragma('quick_check', { simple: true });
  } catch {
    throw new BackupRejected('The file is damaged: SQLite cannot read it.');
  }
  if (check !== 'ok') throw new BackupRejected(`The file is damaged: ${String(check)}.`);
  const tables = new Set(
    candidate
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((row) => (row as { name: string }).name),
  );
  const missing = REQUIRED_TABLES.filter((name) => !tables.has(name));
  if (missing.length > 0)
    throw new BackupRejected(`The file is not a SignDesk backup (it has no ${missing.join(', ')} table).`);
  const known = new Set(readMigrationFiles({ migrationsFolder }).map((migration) => migration.hash));
  const applied = candidate.prepare('SELECT hash FROM __drizzle_migrations').all() as { hash: string }[];
  if (applied.some((row) => !known.has(row.hash))) {
    throw new BackupRejected('The backup was made by a newer version of SignDesk; update SignDesk first.');
  }
}

/** Checks that `file` is a sound SignDesk database this version can take; throws BackupRejected. Returns its office name. */
export function checkDatabaseFile(
  file: string,
  migrationsFolder: string = DEFAULT_MIGRATIONS_FOLDER,
): { officeName: string } {
  const candidate = openCandidate(file);
  try {
    checkCandidate(candidate, migrationsFolder);
    const office = candidate.prepare('SELECT name FROM office LIMIT 1').get() as { name: string } | undefined;
    return { officeName: office?.name ?? '' };
  } finally {
    candidate.close();
  }
}

/**
 * Replaces the live database's content with a validated backup, in place: SQLite's backup API
 * writes the file into the open database as one write transaction, so every connection and
 * prepared statement sees the restored data. Then the migrations bring it up to this version.
 * `file` is a scratch copy that this function may change.
 */
export async function restoreDatabase(
  db: StorageDatabase,
  file: string,
  migrationsFolder: string = DEFAULT_MIGRATIONS_FOLDER,
  /** The backup's files (files/ of the archive): on PostgreSQL they go into the database. */
  filesDir?: string,
): Promise<void> {
  if (db.dialect === 'postgres') return restoreIntoPostgres(db, file, migrationsFolder, filesDir);
  const candidate = openCandidate(file);
  try {
    checkCandidate(candidate, migrationsFolder);
    candidate.pragma('journal_mode = DELETE');
    const live = sqliteOf(db).sqlite;
    const livePageSize = live.pragma('page_size', { simple: true }) as number;
    if (candidate.pragma('page_size', { simple: true }) !== livePageSize) {
      // A WAL database only takes pages of its own size.
      candidate.pragma(`page_size = ${Number(livePageSize)}`);
      candidate.exec('VACUUM');
    }
    const livePath = live.name;
    // As few steps as can be: the live database is locked for the shortest time.
    await candidate.backup(livePath, { progress: () => 2 ** 30 });
  } finally {
    candidate.close();
  }
  migrate(sqliteOf(db).orm, { migrationsFolder });
}

/**
 * A backup's database into PostgreSQL: the copy brought up to this version's schema, then in one
 * transaction every table emptied and filled from it, so that the office sees the old content or
 * the restored one, never a mix.
 */
async function restoreIntoPostgres(
  db: StorageDatabase,
  file: string,
  migrationsFolder: string,
  filesDir: string | undefined,
): Promise<void> {
  const candidate = openCandidate(file);
  try {
    checkCandidate(candidate, migrationsFolder);
  } finally {
    candidate.close();
  }
  const copy = openDatabase(file, { migrationsFolder });
  try {
    // The office's own sealed keys stay (the restore puts the backup's keys in through the key store).
    const tables = tablesInOrder()
      .map((info) => info.name)
      .filter((name) => name !== 'sealed_keys');
    await inTransaction(db, async () => {
      await (db as PgDatabase).client.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
      await copyTables(copy.db, db, undefined, OUTSIDE_THE_COPY);
      if (filesDir === undefined) return;
      const keep = databaseFileStore(storeOf(db))?.keep;
      if (!keep) throw new Error('the database keeps no files of its own');
      for (const sha256 of claimedHashesOf(file))
        await keep(sha256, await fs.promises.readFile(storedFilePath(filesDir, sha256)));
    });
  } finally {
    copy.close();
  }
}

/** The hashes of the stored files a database copy names as kept apart from its rows (`in_files`). */
export function claimedHashesOf(copy: string): string[] {
  const database = new Database(copy, { readonly: true, fileMustExist: true });
  try {
    return database
      .prepare<[], string>('SELECT DISTINCT sha256 FROM stored_files WHERE in_files = 1 ORDER BY sha256')
      .pluck()
      .all();
  } finally {
    database.close();
  }
}

/**
 * The stored files a database copy names in DATA_DIR/files (`in_files` rows), asked one by one:
 * a backup takes exactly those, not a file uploaded after its copy was made.
 */
export function claimedFilesOf(copy: string): { has(sha256: string): boolean; close(): void } {
  const database = new Database(copy, { readonly: true, fileMustExist: true });
  const claimed = database
    .prepare<[string], number>('SELECT 1 FROM stored_files WHERE sha256 = ? AND in_files = 1 LIMIT 1')
    .pluck();
  return { has: (sha256) => claimed.get(sha256) !== undefined, close: () => database.close() };
}
