import { inTransaction, outsideTransactions, type Database } from '../db/database';
import type { JobRepo, JobRow } from '../db/repos/jobs';
import type { Logger } from '../logging/logger';

export type JobOutcome =
  | { kind: 'done' }
  /** A recurring job done for now: due again at `at`. */
  | { kind: 'again'; at: number }
  | { kind: 'retry'; at: number; error: string }
  | { kind: 'failed'; error: string };

/** A job whose handler has returned, waiting for the transaction that settles its turn's batch. */
export type FinishedJob<Result> = { job: JobRow; result: Result };

/** Removes the job or queues it again, by its claim token. */
export type Finalize = (job: JobRow, outcome: JobOutcome) => Promise<void>;

type CommonOptions = {
  queue: string;
  /** The queue's database: one transaction per event-loop turn settles the jobs finished in it. */
  db: Database;
  jobs: JobRepo;
  logger: Logger;
  now: () => number;
  concurrency: number;
  /**
   * A claimed job whose worker vanished becomes claimable again after this long. The lease is
   * renewed while the handler runs (every third of it), so it bounds how long a crash delays
   * the job, not how long a handler may take.
   */
  leaseMs: number;
  /** A handler still running after this long is aborted and its job retried. */
  timeoutMs: number;
  /**
   * stop() aborts the handlers still running (their signal says why) instead of waiting for
   * them: for work that may take hours and is simply done again (a scheduled backup).
   */
  abortOnStop?: boolean;
  /** The longest the runner sleeps without a wake-up (other processes may enqueue). */
  pollMs?: number;
  retryDelayOnCrashMs?: number;
};

/** A queue whose handler's result is its job's outcome. */
export type RunnerOptions = CommonOptions & {
  handle: (job: JobRow, signal: AbortSignal) => Promise<JobOutcome>;
};

/** A queue that loads its jobs' rows per batch and writes what came of them in the settling transaction. */
export type BatchRunnerOptions<Input, Result> = CommonOptions & {
  /** Once per claimed batch, before its handlers start: what they need, by job id (one query, not one per job). */
  load: (jobs: readonly JobRow[]) => Promise<ReadonlyMap<number, Input>>;
  /** Runs the job with what `load` gave for it (undefined: nothing). */
  handle: (job: JobRow, input: Input | undefined, signal: AbortSignal) => Promise<Result>;
  /**
   * Inside the settling transaction: writes the domain rows of the finished jobs and finalizes
   * each one with its outcome, where it belongs among those writes (a later write may look at
   * the job). A job whose handler threw is retried without coming here.
   */
  settle: (finished: readonly FinishedJob<Result>[], finalize: Finalize) => Promise<void>;
};

export type Runner = {
  start(): void;
  /** Runs due jobs now instead of at the next poll. */
  wake(): void;
  /** Stops claiming; waits for the jobs in flight to finish and records them. */
  stop(): Promise<void>;
  /** For tests and benchmarks: runs until no job is due or in flight. */
  runUntilEmpty(): Promise<void>;
  inFlight(): number;
};

/** A failed settling transaction is tried again after this long, with the same results. */
const SETTLE_RETRY_MS = 1_000;
/** After this many failures in a row the results are dropped: the leases expire and the jobs run again. */
const MAX_SETTLE_FAILURES = 3;

/**
 * The one consumer of the durable queue, for every queue. It claims due jobs up to its
 * concurrency, runs each with a timeout while renewing its lease, and works in batches: one
 * transaction per turn of the event loop finalizes every job that finished (by its claim token)
 * and claims as many due jobs as there are free slots.
 */
export function createRunner(options: RunnerOptions): Runner;
export function createRunner<Input, Result>(options: BatchRunnerOptions<Input, Result>): Runner;
export function createRunner<Input, Result>(options: RunnerOptions | BatchRunnerOptions<Input, Result>): Runner {
  if ('settle' in options) return runBatches(options);
  const { handle } = options;
  return runBatches<undefined, JobOutcome>({
    ...options,
    load: async () => new Map(),
    handle: (job, _input, signal) => handle(job, signal),
    settle: async (finished, finalize) => {
      for (const { job, result } of finished) await finalize(job, result);
    },
  });
}

type Done<Result> = { job: JobRow; result: Result } | { job: JobRow; crash: JobOutcome };

function runBatches<Input, Result>(options: BatchRunnerOptions<Input, Result>): Runner {
  const { queue, db, jobs, logger, now } = options;
  const pollMs = options.pollMs ?? 1_000;
  /** Jobs in flight by id, holding the latest claim (a re-claim of our own job only renews its token). */
  const inFlight = new Map<number, JobRow>();
  let finished: Done<Result>[] = [];
  /** The jobs whose handlers run, with the way to abort each. */
  const running = new Map<JobRow, AbortController>();
  /** One timer renews every running job's lease (a timer per job costs the busy queues). */
  let renewal: NodeJS.Timeout | undefined;
  let settleFailures = 0;
  let isStarted = false;
  let isEmptying = false;
  let isTickQueued = false;
  let timer: NodeJS.Timeout | undefined;
  /** stop() and runUntilEmpty() wait here for the runner to have nothing in flight. */
  let idleWaiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];

  const finalize: Finalize = async (job, outcome) => {
    if (outcome.kind === 'retry') await jobs.retryAt(job, outcome.at, outcome.error, now());
    else if (outcome.kind === 'again') await jobs.retryAt(job, outcome.at, null, now());
    else await jobs.finish(job);
  };

  const settleBatch = async (batch: readonly Done<Result>[]) => {
    const results: FinishedJob<Result>[] = [];
    for (const done of batch) {
      if ('crash' in done) await finalize(done.job, done.crash);
      else results.push(done);
    }
    if (results.length > 0) await options.settle(results, finalize);
  };

  const renewLeases = async () => {
    for (const [job, controller] of running) {
      try {
        // Someone else holds the job now (this process stalled past the lease): stop working on it.
        if (!(await jobs.renewLease(job, now() + options.leaseMs, now())))
          controller.abort(new Error('job lease lost'));
      } catch (err) {
        logger.warn({ err, queue, jobId: job.id }, 'renewing a job lease failed; trying again');
      }
    }
  };

  const run = async (job: JobRow, input: Input | undefined) => {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error('job timed out')), options.timeoutMs);
    running.set(job, controller);
    if (!renewal) {
      renewal = setInterval(() => void renewLeases(), Math.max(1, Math.floor(options.leaseMs / 3)));
      renewal.unref();
    }
    try {
      // Awaited first: `finished` is another array by the time the handler returns.
      const result = await options.handle(job, input, controller.signal);
      finished.push({ job, result });
    } catch (err) {
      logger.error({ err, queue, jobId: job.id }, 'job handler failed');
      const at = now() + (options.retryDelayOnCrashMs ?? 60_000);
      finished.push({ job, crash: { kind: 'retry', at, error: String(err) } });
    } finally {
      clearTimeout(timeout);
      running.delete(job);
      if (running.size === 0) {
        clearInterval(renewal);
        renewal = undefined;
      }
      queueTick();
    }
  };

  const startClaimed = async (claimed: readonly JobRow[]) => {
    const fresh: JobRow[] = [];
    // Started in the order they were queued (RETURNING promises no order): a webhook consumer's
    // released held deliveries go one after another in that order.
    for (const job of [...claimed].sort((a, b) => a.id - b.id)) {
      const running = inFlight.get(job.id);
      // This process stalled past a lease and claimed its own job again: the run in progress
      // goes on under the new claim (its renewals and its outcome use the new token).
      if (running) running.claimToken = job.claimToken;
      else {
        inFlight.set(job.id, job);
        fresh.push(job);
      }
    }
    if (fresh.length === 0) return;
    let inputs: ReadonlyMap<number, Input>;
    try {
      inputs = await options.load(fresh);
    } catch (err) {
      // Not started: forget them here, so that the claims, once expired, are taken up again.
      logger.error({ err, queue }, 'loading claimed jobs failed');
      for (const job of fresh) inFlight.delete(job.id);
      return;
    }
    for (const job of fresh) void run(job, inputs.get(job.id));
  };

  const scheduleLook = async () => {
    clearTimeout(timer);
    let delay = pollMs;
    try {
      const dueAt = await jobs.nextDueAt(queue);
      if (dueAt !== undefined) delay = Math.max(0, Math.min(pollMs, dueAt - now()));
    } catch (err) {
      logger.error({ err, queue }, 'reading the queue failed');
    }
    timer = setTimeout(queueTick, delay);
    timer.unref();
  };

  const settleIdle = (err?: unknown) => {
    const waiters = idleWaiters;
    idleWaiters = [];
    isEmptying = false;
    for (const waiter of waiters) {
      if (err === undefined) waiter.resolve();
      else waiter.reject(err);
    }
  };

  const tick = async () => {
    isTickQueued = false;
    const isClaiming = isStarted || isEmptying;
    const batch = finished;
    finished = [];
    const free = isClaiming ? options.concurrency - (inFlight.size - batch.length) : 0;
    if (batch.length === 0 && free <= 0) return;
    const claim = async () => (free > 0 ? await jobs.claim(queue, free, now(), options.leaseMs) : []);
    let claimed: JobRow[] = [];
    try {
      // A claim alone is one statement: no write transaction for a look that may find nothing.
      claimed =
        batch.length === 0
          ? await claim()
          : await inTransaction(db, async () => {
              await settleBatch(batch);
              return claim();
            });
      settleFailures = 0;
      for (const { job } of batch) inFlight.delete(job.id);
    } catch (err) {
      if (batch.length === 0) {
        logger.error({ err, queue }, 'claiming jobs failed');
        // Nothing in flight would ever finish the wait.
        if (inFlight.size === 0 && finished.length === 0) settleIdle(err);
      } else {
        // Keep the results for another try; after a few, let the leases expire (the jobs run again).
        settleFailures += 1;
        logger.error({ err, queue, settleFailures }, 'settling finished jobs failed');
        if (settleFailures < MAX_SETTLE_FAILURES) finished.unshift(...batch);
        else for (const { job } of batch) inFlight.delete(job.id);
      }
      setTimeout(queueTick, SETTLE_RETRY_MS).unref();
    }
    await startClaimed(claimed);
    if (isStarted && inFlight.size < options.concurrency) await scheduleLook();
    if (inFlight.size === 0 && finished.length === 0) settleIdle();
  };

  /**
   * Ticks run one after another, never two at once: a tick loads its claimed jobs' rows after
   * the transaction that settled the batch before, so what a handler reads (a webhook consumer's
   * error count) is never older than the last settle. SQLite's one writer did this by itself;
   * PostgreSQL does not.
   */
  let ticking: Promise<void> | undefined;
  const runTick = (): Promise<void> => {
    // With none running, this one starts at once (its claim reads the clock now).
    const next = ticking ? ticking.then(tick, tick) : tick();
    const mine: Promise<void> = next.finally(() => {
      if (ticking === mine) ticking = undefined;
    });
    ticking = mine;
    return mine;
  };

  function queueTick() {
    if (isTickQueued) return;
    isTickQueued = true;
    // A wake from inside a transaction must not run the tick on that transaction's connection.
    setImmediate(() => outsideTransactions(() => void runTick()));
  }

  const whenIdle = () => new Promise<void>((resolve, reject) => idleWaiters.push({ resolve, reject }));

  return {
    start() {
      if (isStarted) return;
      isStarted = true;
      queueTick();
    },
    wake() {
      if (isStarted) queueTick();
    },
    async stop() {
      isStarted = false;
      clearTimeout(timer);
      if (options.abortOnStop) for (const controller of running.values()) controller.abort(new Error('stopping'));
      if (inFlight.size === 0 && finished.length === 0) return;
      const idle = whenIdle();
      queueTick();
      await idle;
    },
    async runUntilEmpty() {
      isEmptying = true;
      const idle = whenIdle();
      // Claims now, not a turn later: a test may move its clock right after the call.
      await runTick();
      return idle;
    },
    inFlight: () => inFlight.size,
  };
}
