import type { AppContext } from '../../context/app-context';
import { createRunner } from '../../jobs/runner';
import type { Worker } from '../../jobs/worker';
import { TIMESTAMP_QUEUE } from './timestamp-queue';
import { timestampPendingContract } from './timestamp-pending';

/** Appends document timestamps to signed PDFs whose authority did not answer at sealing. */
export function createTimestampWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: TIMESTAMP_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job, signal) => timestampPendingContract(ctx, job.refId, job.attempts, signal),
    logger: ctx.logger.child({ worker: 'timestamps' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 60_000,
    leaseMs: 120_000,
    pollMs: 500,
  });
  return { name: 'timestamps', start: () => runner.start(), stop: () => runner.stop() };
}
