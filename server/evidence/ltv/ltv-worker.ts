import type { AppContext } from '../../context/app-context';
import { createRunner } from '../../jobs/runner';
import type { Worker } from '../../jobs/worker';
import { extendContractLtv } from './extend-ltv';
import { LTV_QUEUE } from './ltv-queue';

/** Adds validation data and archive timestamps to signed PDFs (PAdES B-LTA), and renews them. */
export function createLtvWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: LTV_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job, signal) => extendContractLtv(ctx, job.refId, job.attempts, signal),
    logger: ctx.logger.child({ worker: 'ltv' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 120_000,
    leaseMs: 240_000,
    pollMs: 500,
  });
  return { name: 'ltv', start: () => runner.start(), stop: () => runner.stop() };
}
