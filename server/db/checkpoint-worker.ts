import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

// The checkpointer's worker thread (server/db/checkpointer.ts): its own connection, PASSIVE
// checkpoints only, which take no lock a writer waits for.

export type CheckpointWorkerData = {
  file: string;
  nativeBinding: string | undefined;
  intervalMs: number;
  /** Past this many WAL frames, ask the request connection to checkpoint between two transactions. */
  restartFrames: number;
  /** Frames copied in one pass that mean writes are streaming in: go again at once. */
  streamingFrames: number;
  walSizeLimit: number;
};

export type CheckpointWorkerMessage =
  { type: 'ready' } | { type: 'wal-large'; frames: number } | { type: 'error'; error: string };

/** From the checkpointer: `resume` once the request connection has checkpointed, or `stop`. */
export type CheckpointerMessage = { type: 'resume'; frames: number } | 'stop';

const port = parentPort;
if (!port) throw new Error('the checkpointer runs as a worker thread');
const data = workerData as CheckpointWorkerData;
const db = new Database(
  data.file,
  data.nativeBinding ? { fileMustExist: true, nativeBinding: data.nativeBinding } : { fileMustExist: true },
);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma(`journal_size_limit = ${data.walSizeLimit}`);

let timer: NodeJS.Timeout;
let backfilled = 0;
let reported = 0;
const send = (message: CheckpointWorkerMessage) => port.postMessage(message);

function checkpoint(): void {
  let delay = data.intervalMs;
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number; checkpointed: number }>;
    const log = result?.log ?? 0;
    const checkpointed = result?.checkpointed ?? 0;
    // Counts start again from zero once a write has restarted the WAL.
    const copied = checkpointed >= backfilled ? checkpointed - backfilled : checkpointed;
    backfilled = checkpointed;
    // Writes are streaming in: go again at once, so that what is left behind, and what a
    // restart on the request connection must copy, stays small. A reader held frames back:
    // try again soon.
    if (copied > data.streamingFrames) delay = 0;
    else if (checkpointed < log) delay = Math.ceil(data.intervalMs / 4);
    if (log < reported) reported = 0; // restarted since the last request
    // Past the bound, and grown since the last request (after one, the next write restarts it).
    if (log > data.restartFrames && log > reported) {
      reported = log;
      // Stand aside until the request connection has checkpointed (or a second has passed), so
      // that its checkpoint does not find this one running.
      send({ type: 'wal-large', frames: log });
      delay = 1000;
    }
  } catch (error) {
    send({ type: 'error', error: String((error instanceof Error && error.stack) || error) });
  }
  timer = setTimeout(checkpoint, delay);
}

port.on('message', (message: CheckpointerMessage) => {
  if (message === 'stop') {
    clearTimeout(timer);
    db.close();
    port.close();
    return;
  }
  if (message.type === 'resume') {
    // What the request connection copied up to: the next write restarts the WAL from there.
    reported = Math.max(reported, message.frames);
    clearTimeout(timer);
    timer = setTimeout(checkpoint, 0);
  }
});
timer = setTimeout(checkpoint, data.intervalMs);
send({ type: 'ready' });
