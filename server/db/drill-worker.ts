import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { storedFilePath } from './disk-file-store';

// The restore drill's reading of a restored copy (server/backup/restore-drill.ts), on a thread of
// its own: a full integrity_check and a look at every stored file take seconds at a million
// contracts, and the office's requests go on meanwhile.

export type DrillWorkerData = {
  database: string;
  filesDir: string;
  settingKeys: string[];
  nativeBinding: string | undefined;
};

export type DrillReading = {
  integrity: string;
  settings: Array<[string, string]>;
  /** Rows whose bytes are files of DATA_DIR/files, each found in the copy with its size. */
  filesChecked: number;
  /** The first such file missing from the copy or of the wrong size. */
  fileProblem: string | null;
};

function read(data: DrillWorkerData): DrillReading {
  const database = new Database(data.database, {
    readonly: true,
    fileMustExist: true,
    ...(data.nativeBinding ? { nativeBinding: data.nativeBinding } : {}),
  });
  try {
    const integrity = String(database.pragma('integrity_check', { simple: true }));
    const setting = database.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    const settings = data.settingKeys.flatMap((key): Array<[string, string]> => {
      const row = setting.get(key);
      return row ? [[key, row.value]] : [];
    });
    let filesChecked = 0;
    let fileProblem: string | null = null;
    const rows = database
      .prepare<[], { sha256: string; size: number }>('SELECT sha256, size FROM stored_files WHERE in_files = 1')
      .iterate();
    for (const row of rows) {
      const size = fs.statSync(storedFilePath(data.filesDir, row.sha256), { throwIfNoEntry: false })?.size;
      if (size !== row.size) {
        fileProblem =
          size === undefined
            ? `the stored file ${row.sha256} is not in the backup`
            : `the stored file ${row.sha256} has ${size} bytes in the backup, not ${row.size}`;
        break;
      }
      filesChecked += 1;
    }
    return { integrity, settings, filesChecked, fileProblem };
  } finally {
    database.close();
  }
}

const port = parentPort;
if (!port) throw new Error('the restore drill reads its copy on a worker thread');
try {
  port.postMessage({ ok: true, reading: read(workerData as DrillWorkerData) });
} catch (error) {
  port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
