import type { AppContext } from '../context/app-context';
import { createRunner } from '../jobs/runner';
import { EXPIRY_QUEUE, expireContract } from './expire-contracts';
import type { Worker } from '../jobs/worker';

/** Writes the `contract.expired` entry when a sent contract's expire_time passes. */
export function createExpiryWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: EXPIRY_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job) => expireContract(ctx, job.refId),
    logger: ctx.logger.child({ worker: 'expiry' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 30_000,
    leaseMs: 60_000,
  });
  return { name: 'expiry', start: () => runner.start(), stop: () => runner.stop() };
}
