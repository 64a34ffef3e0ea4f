import type { Worker } from 'node:worker_threads';
import { AppError } from '../../core/errors';
import { startWorkerThread } from '../../core/worker-thread';
import { PdfReadError } from '../pdf-read-error';
import { createFairQueue } from './fair-queue';
import { holdShared } from '../../core/shared-buffers';
import { fromErrorData, type SandboxReply } from './protocol';
import type { PdfTaskInput, PdfTaskName, PdfTaskOutput } from './tasks';

/**
 * PDF work on worker threads, under limits: a hostile PDF (a page tree that loops, a stream
 * that inflates to gigabytes) costs one worker, which is ended and replaced, never the request
 * thread. Tasks wait their turn when every worker is busy.
 */
export type PdfSandbox = {
  /**
   * `source` says whose work it is (default the office's; `party:<id>` for a signing link's):
   * waiting tasks are taken in turn from each source, so one link's flood waits behind itself.
   * Work anyone on the internet can cause (`party:…`, `verify:…`: see `isPublicSource`) runs in
   * its own budget: the office's waiting work goes first, and public work holds at most all
   * workers but one, so an office upload or seal never waits behind a party's.
   * A `signal` aborted while the task still waits takes it out of the line (it fails with the
   * signal's reason); once a worker has it, it runs to its end. `giveBytes`: the caller is done
   * with the input's byte arrays, which move to the worker without a copy (and are empty after),
   * or, those in the upload memory (core/shared-buffers.ts), are lent, held until the task settles.
   */
  run<T extends PdfTaskName>(
    task: T,
    input: PdfTaskInput<T>,
    options?: { source?: string; signal?: AbortSignal; giveBytes?: boolean },
  ): Promise<PdfTaskOutput<T>>;
  /**
   * Ends the workers: tasks still waiting fail, a task a worker already runs ends first (within
   * `CLOSE_WAIT_MS`), so that no worker is torn down in the middle of its work.
   */
  close(): Promise<void>;
};

export type PdfSandboxOptions = {
  /** Workers at most (started as work comes). */
  size: number;
  /** A task still running after this long is cut off and its worker ended. */
  timeoutMs: number;
  /** The V8 heap of one worker, in MiB; past it the worker is ended. */
  maxHeapMb: number;
  /**
   * Bytes one task may unpack from the PDF's compressed streams (ArrayBuffers, which the heap
   * limit does not count): past it the PDF is refused as too complex.
   */
  maxInflatedBytes: number;
};

type Job = {
  task: string;
  /** Work anyone on the internet can cause (a party's mark, a /verify check). */
  isPublic: boolean;
  input: unknown;
  giveBytes: boolean;
  /** Given byte arrays in the upload memory: shared with the worker, not moved. */
  lent: ReadonlySet<unknown>;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
};
/** A worker and its task; `isReady` once its code has loaded (a cold start does not count against a task's time). */
type Slot = {
  worker: Worker;
  isReady: boolean;
  job?: Job & { id: number; timer: NodeJS.Timeout };
  /** Called when the running task has settled (a closing sandbox waits for it). */
  onIdle?: () => void;
};

/** A worker not ready this long after its start (its modules still loading) is given up. */
const START_LIMIT_MS = 120_000;

/**
 * How long closing waits for tasks already running. A worker ended in the middle of a task can
 * take the whole process down (Node aborts when a thread is torn down inside a zlib call), and
 * a real PDF's task takes milliseconds; a task still running after this is ended all the same.
 */
const CLOSE_WAIT_MS = 5_000;

/**
 * 32 MiB unpacked is 16 times the largest upload (2 MiB): far more than the object and
 * cross-reference streams of a real PDF, and unpacked natively in tens of milliseconds.
 */
export const DEFAULT_SANDBOX_OPTIONS: PdfSandboxOptions = {
  size: 2,
  timeoutMs: 20_000,
  maxHeapMb: 512,
  maxInflatedBytes: 32 * 2 ** 20,
};

/**
 * Sources whose work anyone on the internet can cause: a signing link's (`party:<id>`, its
 * marks) and the public verify page's (`verify:<address>`). Eight 4-megapixel marks on one link
 * took both workers and made an admin's upload take 1.5-3.8 s instead of 0.02 s (review
 * 2026-12-07). Page images (`pages:<contract>`) are the office's: cached, and drawn for the
 * office's preview as for the party.
 */
export const isPublicSource = (source: string): boolean => source.startsWith('party:') || source.startsWith('verify:');

/** Workers that public work may hold at once: all but one, so that one is always the office's. */
export const publicShare = (size: number): number => Math.max(1, size - 1);

/** Whether the byte array is the whole of its buffer (not a slice of Node's shared pool), so that moving the buffer moves nothing else. */
const ownsItsBuffer = (bytes: Uint8Array): bytes is Uint8Array<ArrayBuffer> =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;

/**
 * A task's input as it crosses to the worker: its byte arrays (an upload of up to 2 MiB) copied
 * once and handed over, where a structured clone copies them on both sides of the thread; the
 * caller keeps its own bytes. A caller that gives its bytes has them moved without a copy, or,
 * the `lent` ones (in the upload memory), shared.
 */
function handOver(
  input: unknown,
  giveBytes: boolean,
  lent: ReadonlySet<unknown>,
): { input: unknown; transfer: ArrayBuffer[] } {
  if (typeof input !== 'object' || input === null) return { input, transfer: [] };
  const transfer: ArrayBuffer[] = [];
  const copy = Object.fromEntries(
    Object.entries(input).map(([key, value]) => {
      if (!(value instanceof Uint8Array) || lent.has(value)) return [key, value];
      const bytes: Uint8Array<ArrayBuffer> =
        giveBytes && ownsItsBuffer(value) ? new Uint8Array(value.buffer) : new Uint8Array(value);
      transfer.push(bytes.buffer);
      return [key, bytes];
    }),
  );
  return { input: copy, transfer };
}

/**
 * The given byte arrays that are in the upload memory (core/shared-buffers.ts), each held from
 * now until `release`: the slot is not used again while the task waits or runs, whatever the
 * request that filled it does meanwhile.
 */
function lend(input: unknown): { lent: Set<unknown>; release: () => void } {
  const lent = new Set<unknown>();
  const holds: Array<() => void> = [];
  for (const value of typeof input === 'object' && input !== null ? Object.values(input) : []) {
    const hold = value instanceof Uint8Array ? holdShared(value) : undefined;
    if (hold) {
      lent.add(value);
      holds.push(hold);
    }
  }
  return { lent, release: () => holds.splice(0).forEach((hold) => hold()) };
}

/**
 * What a task gets once the sandbox is closing: the server is shutting down, so a request still
 * waiting for it is answered 503 (try again), not as a failure of the service with a stack in the log.
 */
const closedError = () =>
  new AppError(
    'service-unavailable',
    'The server is shutting down (the PDF sandbox is closed); try again in a moment.',
  );

export function createPdfSandbox(options: PdfSandboxOptions = DEFAULT_SANDBOX_OPTIONS): PdfSandbox {
  const slots = new Set<Slot>();
  // Two lines: the office's, always served first, and the public's, within its share of workers.
  const officeWaiting = createFairQueue<Job>();
  const publicWaiting = createFairQueue<Job>();
  const publicLimit = publicShare(options.size);
  const busyPublic = () => [...slots].filter((slot) => slot.job?.isPublic).length;
  const waiting = {
    get length() {
      return officeWaiting.length + publicWaiting.length;
    },
    /** The next task a free worker may take: the office's first, then the public's within its share. */
    shift: (): Job | undefined =>
      officeWaiting.shift() ?? (busyPublic() < publicLimit ? publicWaiting.shift() : undefined),
    /** How many waiting tasks a worker could take now (the public ones beyond the share wait). */
    runnable: () => officeWaiting.length + Math.min(publicWaiting.length, Math.max(0, publicLimit - busyPublic())),
    remove: (job: Job) => (job.isPublic ? publicWaiting : officeWaiting).remove(job),
    drain: () => [...officeWaiting.drain(), ...publicWaiting.drain()],
  };
  let nextId = 1;
  let isClosed = false;

  const startSlot = (): Slot => {
    const worker = startWorkerThread('pdf-sandbox', {
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxHeapMb,
        maxYoungGenerationSizeMb: Math.min(64, options.maxHeapMb / 4),
      },
      workerData: { maxInflatedBytes: options.maxInflatedBytes },
    });
    const slot: Slot = { worker, isReady: false };
    worker.unref();
    // A task's time starts when the worker can take it: loading the worker's modules (slow under
    // tsx in a checkout) is not the PDF's doing. pdf.js loads later, within the first task that reads with it.
    const startTimer = setTimeout(() => endSlot(slot, new Error('the PDF worker did not start')), START_LIMIT_MS);
    startTimer.unref();
    worker.on('message', (reply: SandboxReply | { ready: true }) => {
      if ('ready' in reply) {
        clearTimeout(startTimer);
        slot.isReady = true;
        dispatch();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      clearTimeout(job.timer);
      slot.job = undefined;
      if (reply.ok) job.resolve(reply.output);
      else job.reject(fromErrorData(reply.error));
      slot.onIdle?.();
      dispatch();
    });
    // A worker that died (out of memory, or its start failed) fails its task and leaves the pool.
    worker.on('error', (error) => endSlot(slot, error));
    worker.on('exit', () => endSlot(slot, new Error('the PDF worker stopped')));
    slots.add(slot);
    return slot;
  };

  const endSlot = (slot: Slot, cause: Error) => {
    if (!slots.delete(slot)) return;
    const job = slot.job;
    slot.job = undefined;
    // A worker that could not even start fails the task that waited for it (no endless restarts).
    if (!slot.isReady) (officeWaiting.shift() ?? publicWaiting.shift())?.reject(cause);
    if (job) {
      clearTimeout(job.timer);
      const isOutOfMemory = (cause as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      job.reject(
        isOutOfMemory
          ? new PdfReadError(
              'too-complex',
              'The PDF needs more memory to read than a PDF of its size should; it cannot be used.',
            )
          : cause,
      );
    }
    slot.onIdle?.();
    void slot.worker.terminate();
    dispatch();
  };

  /** Resolves once the slot's running task (if any) has settled, or after `CLOSE_WAIT_MS`. */
  const whenIdle = (slot: Slot) =>
    new Promise<void>((resolve) => {
      if (!slot.job) return resolve();
      const timer = setTimeout(resolve, CLOSE_WAIT_MS);
      slot.onIdle = () => (clearTimeout(timer), resolve());
    });

  const assign = (slot: Slot, job: Job) => {
    const id = nextId++;
    const timer = setTimeout(
      () =>
        endSlot(
          slot,
          new PdfReadError(
            'too-complex',
            `The PDF takes too long to read (over ${Math.round(options.timeoutMs / 1000)} s); it cannot be used.`,
          ),
        ),
      options.timeoutMs,
    );
    slot.job = { ...job, id, timer };
    const { input, transfer } = handOver(job.input, job.giveBytes, job.lent);
    slot.worker.postMessage({ id, task: job.task, input }, transfer);
  };

  /** Hands waiting tasks to idle ready workers, and starts workers (up to the pool's size) for the rest. */
  const dispatch = () => {
    if (isClosed) return;
    for (const slot of slots) {
      const job = slot.isReady && !slot.job ? waiting.shift() : undefined;
      if (job) assign(slot, job);
    }
    let starting = [...slots].filter((slot) => !slot.isReady).length;
    while (waiting.runnable() > starting && slots.size < options.size) {
      startSlot();
      starting += 1;
    }
  };

  return {
    run: (task, input, runOptions) =>
      new Promise((resolve, reject) => {
        if (isClosed) return reject(closedError());
        const signal = runOptions?.signal;
        if (signal?.aborted) return reject(signal.reason as Error);
        const giveBytes = runOptions?.giveBytes ?? false;
        const { lent, release } = giveBytes ? lend(input) : { lent: new Set<unknown>(), release: () => undefined };
        const source = runOptions?.source ?? 'office';
        const job: Job = {
          task,
          isPublic: isPublicSource(source),
          input,
          giveBytes,
          lent,
          resolve: (output) => (release(), resolve(output as PdfTaskOutput<typeof task>)),
          reject: (error) => (release(), reject(error)),
        };
        (job.isPublic ? publicWaiting : officeWaiting).push(source, job);
        signal?.addEventListener('abort', () => waiting.remove(job) && job.reject(signal.reason as Error), {
          once: true,
        });
        dispatch();
      }),
    close: async () => {
      isClosed = true;
      for (const job of waiting.drain()) job.reject(closedError());
      await Promise.all([...slots].map(whenIdle));
      await Promise.all([...slots].map((slot) => (endSlot(slot, closedError()), slot.worker.terminate())));
    },
  };
}
