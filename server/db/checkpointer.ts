import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Logger } from '../logging/logger';

/**
 * WAL checkpoints on a worker thread with its own connection, so that their fsyncs never stall
 * the event loop. SQLite's automatic checkpoint runs on the connection that commits: every
 * ~1,000 pages of writes, one request waited for a copy into the database file and two fsyncs
 * (10-20 ms for a 2 MiB upload). The checkpoints themselves are the same (PASSIVE: the WAL is
 * synced before the copy and the database file after it), so durability does not change.
 *
 * The worker only ever runs PASSIVE checkpoints, which take no lock a writer waits for. Under
 * writes that never pause, though, a checkpoint on another connection never catches up with
 * the end of the WAL, and the WAL (which restarts from its beginning only once all of it is
 * copied) would grow without bound: past `restartFrames` the worker asks this thread for one
 * checkpoint of its own, between two of its transactions, which copies the rest so that the
 * next write starts the WAL afresh. If the worker cannot run, the connection goes back to
 * automatic checkpoints.
 */
export type Checkpointer = { stop(): Promise<void> };

export type CheckpointerOptions = {
  file: string;
  /** The connection that serves requests; its automatic checkpoint is turned off while the worker runs. */
  sqlite: Database.Database;
  logger: Logger;
  nativeBinding?: string;
  intervalMs?: number;
  restartFrames?: number;
};

const AUTOMATIC_PAGES = 1_000; // SQLite's default wal_autocheckpoint
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;

// Plain JavaScript evaluated in the worker: it runs the same way from the sources (tsx, vitest)
// and from the bundled host, and needs nothing of ours but better-sqlite3.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const { file, nativeBinding, intervalMs, restartFrames, walSizeLimit } = workerData;
const db = new Database(file, nativeBinding ? { fileMustExist: true, nativeBinding } : { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('journal_size_limit = ' + walSizeLimit);
let timer;
function checkpoint() {
  let delay = intervalMs;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    if (result.log > restartFrames) parentPort.postMessage({ type: 'wal-large', frames: result.log });
    // Frames were written while it ran: come back sooner.
    if (result.checkpointed < result.log) delay = Math.ceil(intervalMs / 4);
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: String((error && error.stack) || error) });
  }
  timer = setTimeout(checkpoint, delay);
}
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(checkpoint, intervalMs);
`;

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const { sqlite, logger } = options;
  const modulePath = createRequire(import.meta.url).resolve('better-sqlite3');
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  sqlite.pragma('wal_autocheckpoint = 0');
  let isStopping = false;
  let hasFallenBack = false;
  const fallBack = (reason: string) => {
    if (isStopping || hasFallenBack) return;
    hasFallenBack = true;
    logger.warn({ reason }, 'WAL checkpoints are back on the request connection');
    sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
  };
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // Not the parent's flags: under tsx they would load a TypeScript loader into the worker.
    execArgv: [],
    workerData: {
      modulePath,
      file: options.file,
      nativeBinding: options.nativeBinding,
      intervalMs: options.intervalMs ?? 200,
      restartFrames: options.restartFrames ?? 16_384,
      walSizeLimit: WAL_SIZE_LIMIT,
    },
  });
  worker.unref();
  worker.on('message', (message: { type: string; message?: string }) => {
    if (message.type === 'error') logger.error({ error: message.message }, 'WAL checkpoint failed');
    // Runs between two transactions of this connection (they are synchronous), so it reaches the end of the WAL.
    if (message.type === 'wal-large' && !isStopping) {
      const started = performance.now();
      const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
      logger.debug({ ...result, ms: Math.round(performance.now() - started) }, 'WAL checkpointed on the request connection to restart it');
    }
  });
  worker.on('error', (error) => fallBack(error.message));
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', (code) => {
      if (code !== 0) fallBack(`the checkpoint worker exited with ${code}`);
      resolve();
    });
  });
  return {
    async stop() {
      isStopping = true;
      worker.postMessage('stop');
      await exited;
      sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
    },
  };
}
