import fs from 'node:fs';
import path from 'node:path';

/** The DATA_DIR layout: one database, stored files, keys and logs. */
export type DataDirLayout = {
  root: string;
  database: string;
  files: string;
  keys: string;
  logs: string;
};

export function prepareDataDir(root: string): DataDirLayout {
  const layout: DataDirLayout = {
    root,
    database: path.join(root, 'signdesk.sqlite'),
    files: path.join(root, 'files'),
    keys: path.join(root, 'keys'),
    logs: path.join(root, 'logs'),
  };
  for (const dir of [layout.root, layout.files, layout.logs, layout.keys])
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  keepPrivate(layout.root);
  return layout;
}

const isLoose = (mode: number) => (mode & 0o077) !== 0;

/**
 * DATA_DIR is the office's account's alone (folders 700, files 600): on a shared PC other
 * accounts must not read the database, the keys or the logs. New files are made so (SQLite gives
 * the WAL and shm files its database's mode); a folder an older version made readable is
 * tightened once, with everything in it, at the next start.
 */
function keepPrivate(root: string): void {
  if (process.platform === 'win32' || !isLoose(fs.statSync(root).mode)) return;
  const walk = (dir: string) => {
    fs.chmodSync(dir, 0o700);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const child = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && isLoose(fs.statSync(child).mode)) fs.chmodSync(child, 0o600);
    }
  };
  walk(root);
}

/** Makes a file of DATA_DIR the owner's alone, when it exists (see keepPrivate). */
export function makePrivate(file: string): void {
  if (process.platform === 'win32') return;
  try {
    if (isLoose(fs.statSync(file).mode)) fs.chmodSync(file, 0o600);
  } catch {
    // Not there (yet): made with the right mode when it is.
  }
}
