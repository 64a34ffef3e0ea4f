import type { JobRepo, JobRow } from '../db/repos/jobs';
import type { Logger } from '../logging/logger';

export type JobOutcome =
  | { kind: 'done' }
  /** A recurring job done for now: due again at `at`. */
  | { kind: 'again'; at: number }
  | { kind: 'retry'; at: number; error: string }
  | { kind: 'failed'; error: string };

export type JobHandler = (job: JobRow, signal: AbortSignal) => Promise<JobOutcome>;

export type RunnerOptions = {
  queue: string;
  jobs: JobRepo;
  handle: JobHandler;
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
  /** The longest the runner sleeps without a wake-up (other processes may enqueue). */
  pollMs?: number;
  retryDelayOnCrashMs?: number;
};

export type Runner = {
  start(): void;
  /** Runs due jobs now instead of at the next poll. */
  wake(): void;
  /** Stops claiming; waits for the jobs in flight to finish. */
  stop(): Promise<void>;
  /** For tests and benchmarks: runs until no job is due or in flight. */
  runUntilEmpty(): Promise<void>;
  inFlight(): number;
};

/**
 * A polling runner over the durable queue: claims due jobs up to its concurrency, runs each
 * with a timeout, and finalizes it by its claim token.
 */
export function createRunner(options: RunnerOptions): Runner {
  const { queue, jobs, handle, logger, now } = options;
  const pollMs = options.pollMs ?? 1_000;
  const running = new Set<Promise<void>>();
  const runningJobs = new Map<number, JobRow>();
  let isStarted = false;
  let timer: NodeJS.Timeout | undefined;
  let isPumping = false;
  let isPumpAgain = false;

  const settle = (job: JobRow, outcome: JobOutcome) => {
    if (outcome.kind === 'retry') jobs.retryAt(job, outcome.at, outcome.error, now());
    else if (outcome.kind === 'again') jobs.retryAt(job, outcome.at, null, now());
    else jobs.finish(job);
  };

  const renewLease = (job: JobRow, controller: AbortController) => {
    try {
      // Someone else holds the job now (this process stalled past the lease): stop working on it.
      if (!jobs.renewLease(job, now() + options.leaseMs, now())) controller.abort(new Error('job lease lost'));
    } catch (err) {
      logger.warn({ err, queue, jobId: job.id }, 'renewing a job lease failed; trying again');
    }
  };

  const runOne = async (job: JobRow) => {
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error('job timed out')), options.timeoutMs);
    const renewal = setInterval(() => renewLease(job, controller), Math.max(1, Math.floor(options.leaseMs / 3)));
    renewal.unref?.();
    try {
      settle(job, await handle(job, controller.signal));
    } catch (err) {
      logger.error({ err, queue, jobId: job.id }, 'job handler failed');
      jobs.retryAt(job, now() + (options.retryDelayOnCrashMs ?? 60_000), String(err), now());
    } finally {
      clearTimeout(timeout);
      clearInterval(renewal);
    }
  };

  const startJob = (job: JobRow) => {
    const current = runningJobs.get(job.id);
    if (current) {
      // This process stalled past a lease and claimed its own job again: the run in progress
      // goes on under the new claim (its renewals and its outcome use the new token).
      current.claimToken = job.claimToken;
      return;
    }
    runningJobs.set(job.id, job);
    const task = runOne(job).finally(() => {
      runningJobs.delete(job.id);
      running.delete(task);
      if (isStarted) pump();
    });
    running.add(task);
  };

  const schedule = () => {
    if (!isStarted) return;
    clearTimeout(timer);
    const dueAt = jobs.nextDueAt(queue);
    const delay = dueAt === undefined ? pollMs : Math.max(0, Math.min(pollMs, dueAt - now()));
    timer = setTimeout(pump, delay);
    timer.unref?.();
  };

  const pump = () => {
    // A pump queued (setImmediate, timer) before stop() must not claim after it: stop() has
    // already counted the work in flight, and the database may close next.
    if (!isStarted) return;
    if (isPumping) {
      isPumpAgain = true;
      return;
    }
    isPumping = true;
    try {
      do {
        isPumpAgain = false;
        const free = options.concurrency - running.size;
        if (free <= 0) break;
        const claimed = jobs.claim(queue, free, now(), options.leaseMs);
        for (const job of claimed) startJob(job);
        if (claimed.length === free) isPumpAgain = true;
      } while (isPumpAgain && isStarted);
    } catch (err) {
      logger.error({ err, queue }, 'claiming jobs failed');
    } finally {
      isPumping = false;
    }
    if (running.size < options.concurrency) schedule();
  };

  return {
    start() {
      if (isStarted) return;
      isStarted = true;
      setImmediate(pump);
    },
    wake() {
      if (isStarted) setImmediate(pump);
    },
    async stop() {
      isStarted = false;
      clearTimeout(timer);
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    async runUntilEmpty() {
      for (;;) {
        for (const job of jobs.claim(queue, options.concurrency, now(), options.leaseMs)) startJob(job);
        if (running.size === 0) return;
        await Promise.all([...running]);
      }
    },
    inFlight: () => running.size,
  };
}
