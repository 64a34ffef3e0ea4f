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
  for (const dir of [layout.root, layout.files, layout.logs]) fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(layout.keys, { recursive: true, mode: 0o700 });
  return layout;
}

const SERVER_MARK = 'server.json';

/** Whether a process with this id runs (EPERM: it runs as another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Says, in DATA_DIR, that this process serves it (its pid and address), so that commands which
 * must not run beside the server (a restore) can refuse. Returns the way to take the mark away.
 */
export function markServing(layout: DataDirLayout, url: string): () => void {
  const file = path.join(layout.root, SERVER_MARK);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, url, started: new Date().toISOString() }), { mode: 0o600 });
  return () => {
    try {
      const mark = JSON.parse(fs.readFileSync(file, 'utf8')) as { pid?: number };
      if (mark.pid === process.pid) fs.rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
}

/** The server that serves this DATA_DIR now, if any: a mark whose process still runs (one left by a crash does not count). */
export function findServingServer(root: string): { pid: number; url: string } | undefined {
  try {
    const mark = JSON.parse(fs.readFileSync(path.join(root, SERVER_MARK), 'utf8')) as { pid?: unknown; url?: unknown };
    if (typeof mark.pid !== 'number' || !isRunning(mark.pid)) return undefined;
    return { pid: mark.pid, url: String(mark.url ?? '') };
  } catch {
    return undefined;
  }
}
