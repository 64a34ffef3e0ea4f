import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../core/worker-thread';
import { createContractSearch } from './repos/contract-search';
import type { SearchReply, SearchRequest, SearchWorkerData } from './search-worker';

/**
 * Contract searches on worker threads (docs/decisions.md, "Contracts", search): each thread has
 * its own read-only connection and runs the same search (server/db/repos/contract-search.ts), so
 * the index reads of a search never hold up the event loop, where every other request waits.
 * The request thread then reads the window's contracts (at most SEARCH_WINDOW, by id).
 *
 * A search the request thread ran a moment ago with nothing written since is answered from its
 * window at once (a list asks for its page and total, the admin UI for its counts too). Until a
 * thread is ready, or if none can run, the search runs on the request thread as before.
 */
export type SearchPool = {
  /** The ids of the search's window, newest first; undefined when there is no search. */
  findWindow(name: string | undefined, q: string | undefined): Promise<number[] | undefined>;
  /** How many searches the threads have answered (the rest ran on the request thread). */
  readonly answeredByThreads: number;
  close(): Promise<void>;
};

export type SearchPoolOptions = {
  file: string;
  /** The request connection: its writes and the database's version say when a kept window is stale. */
  sqlite: Database.Database;
  /** Threads at most, started at the first search. */
  size: number;
  nativeBinding?: string | undefined;
  /** Told once when no thread can run and searches stay on the request thread. */
  onGiveUp?: (reason: string) => void;
};

type Job = { name: string | undefined; q: string | undefined; resolve: (ids: number[] | undefined) => void };
type Slot = { worker: Worker; isReady: boolean; job?: Job & { id: number } };

/** Two threads: searches overlap one another, and the request thread keeps a core when the machine has two. */
export const SEARCH_THREADS = 2;
/** Threads that end before they were ready, in a row, after which searches stay on the request thread. */
const FAILED_STARTS = 3;
const KEPT_WINDOWS = 16;

export function createSearchPool(options: SearchPoolOptions): SearchPool {
  const { sqlite } = options;
  const local = createContractSearch(sqlite);
  const slots = new Set<Slot>();
  const waiting: Job[] = [];
  const kept = new Map<string, number[] | undefined>();
  const writes = sqlite.prepare<[], number>('SELECT total_changes()').pluck();
  const stateOf = () => `${writes.get() ?? 0}:${sqlite.pragma('data_version', { simple: true }) as number}`;
  let nextId = 1;
  let failedStarts = 0;
  let isClosed = false;
  let answered = 0;

  const onThisThread = (job: Job) => job.resolve(local.findWindow(job.name, job.q));

  const startSlot = (): void => {
    const workerData: SearchWorkerData = { file: options.file, nativeBinding: options.nativeBinding };
    const slot: Slot = { worker: startWorkerThread('contract-search', { workerData }), isReady: false };
    slot.worker.unref();
    slot.worker.on('message', (reply: SearchReply | { ready: true }) => {
      if ('ready' in reply) {
        slot.isReady = true;
        failedStarts = 0;
        return dispatch();
      }
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = undefined;
      if (reply.error === undefined) {
        answered += 1;
        job.resolve(reply.ids);
      } else onThisThread(job);
      dispatch();
    });
    slot.worker.on('error', (error) => endSlot(slot, error.message));
    slot.worker.on('exit', (code) => endSlot(slot, `the search thread exited with ${code}`));
    slots.add(slot);
  };

  const endSlot = (slot: Slot, reason: string) => {
    if (!slots.delete(slot)) return;
    if (!slot.isReady && !isClosed && ++failedStarts === FAILED_STARTS) options.onGiveUp?.(reason);
    // The search it held is answered here: a search never fails for a thread's sake.
    if (slot.job) onThisThread(slot.job);
    void slot.worker.terminate();
    dispatch();
  };

  const dispatch = () => {
    for (const slot of slots) {
      const job = slot.isReady && !slot.job ? waiting.shift() : undefined;
      if (!job) continue;
      const id = nextId++;
      slot.job = { ...job, id };
      const request: SearchRequest = { id, name: job.name, q: job.q };
      slot.worker.postMessage(request);
    }
    // No thread ready (starting, or none can start): the waiting searches run here.
    const isAnyReady = [...slots].some((slot) => slot.isReady);
    if (!isAnyReady) for (const job of waiting.splice(0)) onThisThread(job);
    if (!isClosed && failedStarts < FAILED_STARTS && slots.size < options.size && waiting.length + 1 > slots.size)
      startSlot();
  };

  return {
    async findWindow(name, q) {
      if (!name && !q) return undefined;
      const key = JSON.stringify([name ?? '', q ?? '', stateOf()]);
      if (kept.has(key)) return kept.get(key);
      const ids = await new Promise<number[] | undefined>((resolve) => {
        if (isClosed) return onThisThread({ name, q, resolve });
        waiting.push({ name, q, resolve });
        dispatch();
      });
      if (kept.size >= KEPT_WINDOWS) kept.delete(kept.keys().next().value as string);
      kept.set(key, ids);
      return ids;
    },
    get answeredByThreads() {
      return answered;
    },
    async close() {
      isClosed = true;
      for (const job of waiting.splice(0)) onThisThread(job);
      await Promise.all(
        [...slots].map((slot) => {
          slots.delete(slot);
          if (slot.job) onThisThread(slot.job);
          return slot.worker.terminate();
        }),
      );
    },
  };
}
