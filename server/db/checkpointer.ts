import type Database from 'better-sqlite3';
import { startWorkerThread } from '../core/worker-thread';
import type { Logger } from '../logging/logger';
import type { CheckpointerMessage, CheckpointWorkerData, CheckpointWorkerMessage } from './checkpoint-worker';

/**
 * WAL checkpoints on a worker thread with its own connection, so that their fsyncs never stall
 * the event loop. SQLite's automatic checkpoint runs on the connection that commits: every
 * ~1,000 pages of writes, one request waited for a copy into the database file and two fsyncs
 * (10-20 ms for a 2 MiB upload). The checkpoints themselves are the same (PASSIVE: the WAL is
 * synced before the copy and the database file after it), so durability does not change.
 *
 * The worker only ever runs PASSIVE checkpoints, which take no lock a writer waits for: every
 * `intervalMs`, or again at once while writes stream in. The WAL starts again from its
 * beginning only when a write finds all of it copied, which writes that never pause do not
 * allow; past `restartFrames` the worker stands aside and asks this thread for one checkpoint
 * between two of its transactions: it copies what the worker has not yet (little, since the
 * worker keeps up) and the next write restarts the WAL. If the worker cannot run, the
 * connection goes back to automatic checkpoints.
 */
export type Checkpointer = {
  /**
   * Resolves once the worker runs (until then the request connection checkpoints as before), or
   * once it failed and the request connection keeps checkpointing.
   */
  ready: Promise<void>;
  stop(): Promise<void>;
};

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

export function startCheckpointer(options: CheckpointerOptions): Checkpointer {
  const { sqlite, logger } = options;
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  let isStopping = false;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let hasFallenBack = false;
  const fallBack = (reason: string) => {
    if (isStopping || hasFallenBack) return;
    hasFallenBack = true;
    markReady();
    logger.warn({ reason }, 'WAL checkpoints are back on the request connection');
    sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
  };
  // A checkpoint that keeps failing (a full disk) fails every 200 ms: it is logged once a minute at most.
  let lastReport = 0;
  let failuresSinceReport = 0;
  const reportFailure = (error: string) => {
    failuresSinceReport += 1;
    const now = Date.now();
    if (now - lastReport < 60_000) return;
    logger.error({ error, failures: failuresSinceReport }, 'WAL checkpoint failed');
    lastReport = now;
    failuresSinceReport = 0;
  };
  const workerData: CheckpointWorkerData = {
    file: options.file,
    nativeBinding: options.nativeBinding,
    intervalMs: options.intervalMs ?? 200,
    restartFrames: options.restartFrames ?? 16_384,
    streamingFrames: 256,
    walSizeLimit: WAL_SIZE_LIMIT,
  };
  const worker = startWorkerThread('checkpointer', { workerData });
  const tell = (message: CheckpointerMessage) => worker.postMessage(message);
  worker.unref();
  worker.on('message', (message: CheckpointWorkerMessage) => {
    if (message.type === 'ready' && !isStopping && !hasFallenBack) {
      sqlite.pragma('wal_autocheckpoint = 0');
      markReady();
    }
    if (message.type === 'error') reportFailure(message.error);
    // Runs between two transactions of this connection (they are synchronous), so it reaches the end of the WAL.
    if (message.type === 'wal-large' && !isStopping) {
      let frames = 0;
      try {
        const started = performance.now();
        const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
        frames = result?.log ?? 0;
        logger.debug(
          { ...result, ms: Math.round(performance.now() - started) },
          'WAL checkpointed on the request connection to restart it',
        );
      } catch (error) {
        logger.error({ err: error }, 'WAL checkpoint on the request connection failed');
      }
      tell({ type: 'resume', frames });
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
    ready,
    async stop() {
      isStopping = true;
      // Held until it has exited: unreferenced, a process with nothing else left to do would end
      // before shutdown reaches its last checkpoint and close.
      worker.ref();
      tell('stop');
      await exited;
      sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
    },
  };
}
