import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '../core/worker-thread';
import type { SqliteDatabase } from './database';
import type { KeysetRequest } from './keyset';
import type { ContractFilter, ContractSortTerm } from './repos/contracts';
import {
  createSearchTasks,
  type SearchCounts,
  type SearchList,
  type SearchReply,
  type SearchRequest,
  type SearchTask,
} from './search-tasks';
import type { SearchWorkerData } from './search-worker';
import { storeOf } from './stores';

/**
 * Contract searches on worker threads (docs/decisions.md, "Contracts", search): each thread has
 * its own read-only connection and runs the list, total and counts of a search (`name`, `q`)
 * with the same repository queries as the request thread (server/db/search-tasks.ts), so that
 * a search's reads never hold up the event loop, where every other request waits. A thread
 * reads after every write the request thread had committed when the search was asked (WAL: a
 * read sees every commit before it starts).
 *
 * Until a thread is ready, or when none can run, a search runs on the request thread as before;
 * a thread that fails hands its search back to the request thread, so a search never fails for
 * a thread's sake.
 */
export type SearchPool = {
  list(request: KeysetRequest, filter: ContractFilter, sort: ContractSortTerm[] | undefined): Promise<SearchList>;
  counts(filter: Omit<ContractFilter, 'status'>): Promise<SearchCounts>;
  /** How many searches the threads have answered (the rest ran on the request thread). */
  readonly answeredByThreads: number;
  close(): Promise<void>;
};

export type SearchPoolOptions = {
  file: string;
  /** The request thread's database, for searches no thread takes. */
  db: SqliteDatabase;
  /** Threads at most, started at the first search. */
  size: number;
  nativeBinding?: string | undefined;
  /** Told once when no thread can start and searches stay on the request thread. */
  onGiveUp?: (reason: string) => void;
};

/**
 * One thread a core beside the request thread's, at most two: on a two-core office PC a second
 * search thread only takes turns with the request thread (measured: a GET's p99 while searches
 * ran was worse with two than with one).
 */
export const SEARCH_THREADS = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Threads that end before they were ready, in a row, after which searches stay on the request thread. */
const FAILED_STARTS = 3;

type Job = { task: SearchTask; resolve: (output: unknown) => void; reject: (error: unknown) => void };
type Slot = { worker: Worker; isReady: boolean; job?: Job & { id: number } };

export function createSearchPool(options: SearchPoolOptions): SearchPool {
  const local = createSearchTasks(storeOf(options.db));
  const slots = new Set<Slot>();
  const waiting: Job[] = [];
  let nextId = 1;
  let failedStarts = 0;
  let isClosed = false;
  let answered = 0;

  const onThisThread = (job: Job) => {
    local.run(job.task).then(job.resolve, job.reject);
  };

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
        job.resolve(reply.output);
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
      const request: SearchRequest = { ...job.task, id };
      slot.worker.postMessage(request);
    }
    // No thread ready (starting, or none can start): the waiting searches run here.
    if (![...slots].some((slot) => slot.isReady)) for (const job of waiting.splice(0)) onThisThread(job);
    if (!isClosed && failedStarts < FAILED_STARTS && slots.size < options.size && waiting.length + 1 > slots.size)
      startSlot();
  };

  const run = (task: SearchTask) =>
    new Promise<unknown>((resolve, reject) => {
      if (isClosed) return onThisThread({ task, resolve, reject });
      waiting.push({ task, resolve, reject });
      dispatch();
    });

  return {
    list: (request, filter, sort) => run({ task: 'list', request, filter, sort }) as Promise<SearchList>,
    counts: (filter) => run({ task: 'counts', filter }) as Promise<SearchCounts>,
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
