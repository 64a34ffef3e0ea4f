import type { AppContext } from '../../context/app-context';
import { createRunner } from '../../jobs/runner';
import type { Worker } from '../../jobs/worker';
import { ANCHOR_QUEUE, planAnchorAtStart } from './anchor-queue';
import { makeAnchor } from './make-anchor';

/**
 * Makes the office anchors. At start an anchor job is queued unless one waits already, so an
 * office whose last anchor is older than a day (the PC was off) gets one at once.
 */
export function createAnchorWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: ANCHOR_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job, signal) => makeAnchor(ctx, job.attempts, signal),
    logger: ctx.logger.child({ worker: 'anchors' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 60_000,
    leaseMs: 120_000,
    pollMs: 500,
  });
  return {
    name: 'anchors',
    start: async () => {
      await planAnchorAtStart(ctx);
      runner.start();
    },
    stop: () => runner.stop(),
  };
}
