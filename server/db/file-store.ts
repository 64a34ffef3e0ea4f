import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './database';
import { storeOf } from './stores';

/**
 * Bytes kept as files in DATA_DIR/files, named by their SHA-256 (`ab/abcdef…`), for uploads:
 * written ahead of the transaction that names them, off the request thread (by the PDF worker
 * that reads the upload, core/durable-file.ts), so that the request thread never copies 2 MiB
 * into the database. The order keeps every row's file on the disk whatever moment the process
 * dies:
 *
 * 1. `reserve` names a new file in a private incoming folder, which the writer fills and syncs;
 * 2. `place` records the hash as unclaimed (its own small commit), then renames the file into
 *    place and syncs its folder;
 * 3. the transaction that stores the row (`files.putPlacedFile`) claims it.
 *
 * A file whose row never committed, or whose last row was deleted (`files.releaseFile`), stays
 * unclaimed until `sweepUnclaimedFiles` at the next start removes it: only the process that takes
 * DATA_DIR's lock sweeps, so a backup written beside a running server never misses a file its
 * database copy names.
 */
export type FileStore = {
  /** A new file's name in the incoming folder, for bytes to be written there (whole and synced) and then placed. */
  reserve(): ReservedFile;
  /** The stored file's bytes, read off the request thread; rejects when the file is not there (a DATA_DIR someone damaged). */
  read(sha256: string): Promise<Buffer>;
  /** The same, read at once on the calling thread: for the few callers that cannot wait (a transaction). */
  readNow(sha256: string): Buffer;
};

export type ReservedFile = {
  /** Where the bytes go: a file that does not exist yet. */
  path: string;
  /** Moves the written bytes to their place under their hash (computed by their writer). */
  place(sha256: string): Promise<void>;
  /** Removes whatever was written (the upload was refused); harmless after `place` and when nothing was. */
  discard(): Promise<void>;
};

const SHA256 = /^[0-9a-f]{64}$/;

export function storedFilePath(filesDir: string, sha256: string): string {
  if (!SHA256.test(sha256)) throw new Error(`not a SHA-256: ${sha256.slice(0, 80)}`);
  return path.join(filesDir, sha256.slice(0, 2), sha256);
}

/** Syncs a folder, so that a rename into it outlives a power cut (where the platform can). */
async function syncFolder(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await fs.promises.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A file someone took from DATA_DIR/files named as such; any other read error as it is. */
function missingFileError(sha256: string, err: unknown): unknown {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return err;
  return new Error(`the stored file ${sha256} is missing from DATA_DIR/files`, { cause: err });
}

/**
 * The store of DATA_DIR `root`: uploads are staged in a private `.incoming-…` folder of its own
 * (made at the first upload; one a crash left is removed at the next start, as scratch folders are).
 */
export function createFileStore(options: { db: Database; root: string; filesDir: string }): FileStore {
  const x = storeOf(options.db);
  let incoming: string | undefined;
  const incomingDir = () => {
    if (incoming) return incoming;
    incoming = path.join(options.root, `.incoming-${randomBytes(6).toString('hex')}`);
    fs.mkdirSync(incoming, { mode: 0o700 });
    return incoming;
  };
  /** The incoming folder, made again should something have taken it away meanwhile. */
  const existingIncomingDir = () => {
    const dir = incomingDir();
    if (fs.existsSync(dir)) return dir;
    incoming = undefined;
    return incomingDir();
  };
  /** The hash folders made (or found) so far: each is made once, not at every upload. */
  const madeFolders = new Set<string>();
  const intoFolder = async (staged: string, target: string) => {
    const folder = path.dirname(target);
    if (madeFolders.has(folder)) {
      try {
        return await fs.promises.rename(staged, target);
      } catch (error) {
        // The folder is gone (someone tidied DATA_DIR by hand): made again below.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        madeFolders.delete(folder);
      }
    }
    await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    madeFolders.add(folder);
    await fs.promises.rename(staged, target);
  };
  const markUnclaimed = x.sql('INSERT INTO unclaimed_files (sha256, since) VALUES (?, ?) ON CONFLICT DO NOTHING');
  return {
    reserve() {
      const staged = path.join(existingIncomingDir(), randomBytes(12).toString('hex'));
      return {
        path: staged,
        async place(sha256) {
          const target = storedFilePath(options.filesDir, sha256);
          await markUnclaimed.run([sha256, Date.now()]);
          await intoFolder(staged, target);
          await syncFolder(path.dirname(target));
        },
        discard: () => fs.promises.rm(staged, { force: true }),
      };
    },
    read: (sha256) =>
      fs.promises.readFile(storedFilePath(options.filesDir, sha256)).catch((err: unknown) => {
        throw missingFileError(sha256, err);
      }),
    readNow(sha256) {
      try {
        return fs.readFileSync(storedFilePath(options.filesDir, sha256));
      } catch (err) {
        throw missingFileError(sha256, err);
      }
    },
  };
}

/**
 * Removes the files no row claims (an upload cut off before its commit, a deleted contract's
 * PDF). Run by the holder of DATA_DIR's lock at its start, before anything else writes. Returns
 * how many files it removed.
 */
export async function sweepUnclaimedFiles(db: Database, filesDir: string): Promise<number> {
  const x = storeOf(db);
  const unclaimed = await x.sql<{ sha256: string }>('SELECT sha256 FROM unclaimed_files').all();
  const isClaimed = x.sql('SELECT 1 AS one FROM stored_files WHERE sha256 = ? AND in_files = TRUE LIMIT 1');
  const forget = x.sql('DELETE FROM unclaimed_files WHERE sha256 = ?');
  let removed = 0;
  for (const { sha256 } of unclaimed) {
    const file = storedFilePath(filesDir, sha256);
    if (!(await isClaimed.get([sha256])) && fs.existsSync(file)) {
      try {
        fs.rmSync(file);
        removed += 1;
      } catch {
        continue; // Tried again at the next start.
      }
    }
    await forget.run([sha256]);
  }
  return removed;
}
