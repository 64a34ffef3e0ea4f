import type { AppContext } from '../../context/app-context';
import { createRunner } from '../../jobs/runner';
import type { Worker } from '../../jobs/worker';
import { ARCHIVE_RENEWAL_QUEUE, planArchiveRenewalCheck, runArchiveRenewalCheck } from './archive-renewal';

/** The daily check for archive timestamps due for renewal. */
export function createArchiveRenewalWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: ARCHIVE_RENEWAL_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async () => runArchiveRenewalCheck(ctx),
    logger: ctx.logger.child({ worker: 'archive-renewal' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 60_000,
    leaseMs: 120_000,
    pollMs: 1_000,
  });
  return {
    name: 'archive-renewal',
    start: async () => {
      await planArchiveRenewalCheck(ctx);
      runner.start();
    },
    stop: () => runner.stop(),
  };
}
