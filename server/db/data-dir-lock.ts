import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DATA_DIR_BUSY_PREFIX } from '../../shared/host-messages';

/**
 * One process at a time writes a DATA_DIR: the server, the desktop host or a CLI command that
 * writes. The lock is SQLite's own file lock (fcntl on Unix, LockFileEx on Windows) on a small
 * database of its own, held EXCLUSIVE for the process's life: the kernel lets it go when the
 * process ends, a `kill -9` or a crash included, so no stale lock ever has to be cleared by hand.
 * The holder's pid and address go in a file beside it, for the message the next one shows
 * (the lock database itself cannot be read by others while it is held). See docs/decisions.md.
 */
const LOCK_FILE = 'signdesk.lock';
const HOLDER_FILE = 'signdesk.lock.json';

export type LockHolder = { pid: number; role: string; url: string | null; started: string };

/** Another process holds the DATA_DIR: says which, and where it answers. */
export class DataDirBusy extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(describeHolder(dataDir, holder));
    this.name = 'DataDirBusy';
  }
}

function describeHolder(dataDir: string, holder: LockHolder | undefined): string {
  if (!holder) return `${DATA_DIR_BUSY_PREFIX} is already using the data folder ${dataDir}; stop it first.`;
  const where = holder.url ? ` at ${holder.url}` : '';
  return `${DATA_DIR_BUSY_PREFIX} (${holder.role}, process ${holder.pid}${where}) is already using the data folder ${dataDir}; stop it first, or use it instead.`;
}

function readHolder(root: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(path.join(root, HOLDER_FILE), 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid !== 'number') return undefined;
    return {
      pid: holder.pid,
      role: String(holder.role ?? 'server'),
      url: typeof holder.url === 'string' ? holder.url : null,
      started: String(holder.started ?? ''),
    };
  } catch {
    return undefined;
  }
}

export type DataDirLock = {
  /** Records where the holder answers (the server, once it listens). */
  setAddress(url: string): void;
  /** Lets the lock go (the kernel does the same when the process ends). */
  release(): void;
};

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/**
 * Takes the DATA_DIR for this process, or throws DataDirBusy naming the process that has it.
 * `role` says what holds it in the next one's message ("server", "desktop app", "cli token create").
 */
export function lockDataDir(root: string, role: string, options: { nativeBinding?: string } = {}): DataDirLock {
  const file = path.join(root, LOCK_FILE);
  const holderFile = path.join(root, HOLDER_FILE);
  let lock: Database.Database;
  try {
    lock = new Database(file, {
      timeout: 0,
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    });
    fs.chmodSync(file, 0o600);
    // A rollback journal, not WAL: WAL's shared memory would let another process in.
    lock.pragma('journal_mode = DELETE');
    lock.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the EXCLUSIVE lock, and in this mode it is kept until close.
    lock.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY, pid INTEGER)');
    lock.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
  } catch (err) {
    if (isBusy(err)) throw new DataDirBusy(root, readHolder(root));
    throw err;
  }
  const holder: LockHolder = { pid: process.pid, role, url: null, started: new Date().toISOString() };
  const writeHolder = () => fs.writeFileSync(holderFile, JSON.stringify(holder), { mode: 0o600 });
  writeHolder();
  let isReleased = false;
  return {
    setAddress(url) {
      holder.url = url;
      writeHolder();
    },
    release() {
      if (isReleased) return;
      isReleased = true;
      fs.rmSync(holderFile, { force: true });
      lock.close();
    },
  };
}
