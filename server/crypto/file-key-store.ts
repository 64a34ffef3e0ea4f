import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { checkKeyName, isKeyName, type KeyStore } from './key-store';

/**
 * The keys as files of DATA_DIR/keys (SQLite's office; mode 600 in folders of mode 700), as
 * they always were. A key is written to a temporary file that is synced and then linked
 * (created) or renamed (replaced) into place, so that a full disk or a crash leaves no empty or
 * short key behind, and of two processes creating a key at once the first one's wins.
 */
export function createFileKeyStore(dir: string): KeyStore {
  const fileOf = (name: string) => {
    checkKeyName(name);
    return path.join(dir, name);
  };
  /** A synced temporary file beside `file` holding `bytes`; the caller links or renames it, then removes it. */
  const writeTemporary = (file: string, bytes: Buffer): string => {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = path.join(
      path.dirname(file),
      `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
    );
    const fd = fs.openSync(temporary, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, bytes);
      fs.fsyncSync(fd);
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(temporary, { force: true });
      throw error;
    }
    fs.closeSync(fd);
    return temporary;
  };
  const readFile = (file: string): Buffer | undefined => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
  return {
    kind: 'files',
    read: async (name) => readFile(fileOf(name)),
    async createOnce(name, fresh) {
      const file = fileOf(name);
      const stored = readFile(file);
      if (stored) return stored;
      const temporary = writeTemporary(file, fresh);
      try {
        fs.linkSync(temporary, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      } finally {
        // Linked or not (another process was first), no temporary file is left behind.
        fs.rmSync(temporary, { force: true });
      }
      return fs.readFileSync(file);
    },
    async replace(name, value) {
      const file = fileOf(name);
      const temporary = writeTemporary(file, value);
      try {
        fs.renameSync(temporary, file);
      } finally {
        fs.rmSync(temporary, { force: true });
      }
    },
    list: async () => [...walk(dir, '')].sort(),
    describe: (name) => fileOf(name),
  };
}

/** The key files under `dir` (regular files with a key's name: not the temporary files a crash may leave). */
function* walk(dir: string, relative: string): Generator<string> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory() && relative === '') yield* walk(dir, name);
    else if (entry.isFile() && isKeyName(name)) yield name;
  }
}
