import type { Database } from './database';
import { createDiskFileStore, sweepUnclaimedDiskFiles } from './disk-file-store';
import { createPgFileStore, sweepUnclaimedPgFiles } from './pg/pg-file-store';
import type { Store } from './store';
import { storeOf } from './stores';

/**
 * Where stored files' bytes live, content-addressed by their SHA-256: the one place that
 * chooses by dialect. On SQLite, files in DATA_DIR/files (./disk-file-store.ts); on PostgreSQL,
 * chunks in the database (./pg/pg-file-store.ts), so that any instance reads any file.
 *
 * An upload's bytes are written ahead of the transaction that names them, off the request thread
 * (by the PDF worker that reads the upload, core/durable-file.ts), into a reserved file, which is
 * then placed under its hash as unclaimed; the transaction that stores the row
 * (`files.putPlacedFile`) claims it. A file no row claims (a row that never committed, or whose
 * last row was deleted: `files.releaseFile`) is removed by `sweepUnclaimedFiles`.
 */
export type FileStore = {
  /** A new file's name in a private incoming folder, for bytes to be written there (whole and synced) and then placed. */
  reserve(): ReservedFile;
  /**
   * The stored file's bytes (of `size` bytes, when the caller knows it), read off the request
   * thread or in chunks; rejects when they are not there (a DATA_DIR someone damaged).
   */
  read(sha256: string, size?: number): Promise<Buffer>;
  /**
   * Keeps bytes at hand under their hash, in the caller's transaction: where bytes given whole
   * (`files.putFile`) live in the store too (PostgreSQL). Undefined where they stay in their
   * row's `data` (SQLite).
   */
  readonly keep: ((sha256: string, bytes: Buffer) => Promise<void>) | undefined;
};

export type ReservedFile = {
  /** Where the bytes go: a file that does not exist yet. */
  path: string;
  /** Stores the written bytes under their hash (computed by their writer), as unclaimed until a row claims them. */
  place(sha256: string): Promise<void>;
  /** Removes whatever was written (the upload was refused); harmless after `place` and when nothing was. */
  discard(): Promise<void>;
};

/** The file store of the office whose database is `db` and whose DATA_DIR is `root`. */
export function createFileStore(options: { db: Database; root: string; filesDir: string }): FileStore {
  const x = storeOf(options.db);
  return x.dialect === 'postgres' ? createPgFileStore(x, options.root) : createDiskFileStore(x, options);
}

/**
 * The file store a database holds by itself, for code that has the database and no DATA_DIR
 * (the repositories of a copy, tests): PostgreSQL's; undefined on SQLite, whose files are DATA_DIR's.
 */
export function databaseFileStore(x: Store): FileStore | undefined {
  return x.dialect === 'postgres' ? createPgFileStore(x) : undefined;
}

/**
 * Removes the stored files no row claims; returns how many. SQLite: run by the holder of
 * DATA_DIR's lock at its start, before anything else writes. PostgreSQL: any instance, any time
 * (each start): files unclaimed for an hour, so none an upload is placing or claiming right now.
 */
export async function sweepUnclaimedFiles(db: Database, filesDir: string): Promise<number> {
  return db.dialect === 'postgres' ? sweepUnclaimedPgFiles(db) : sweepUnclaimedDiskFiles(db, filesDir);
}
