import type { AppContext } from '../context/app-context';
import { createRunner } from '../jobs/runner';
import { BULK_SEND_QUEUE } from './bulk-send';
import { sendBulkRow } from './send-bulk-row';
import type { Worker } from '../jobs/worker';

/** Makes and sends the contracts of bulk sends, one row (one transaction) per job. */
export function createBulkSendWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: BULK_SEND_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job) => sendBulkRow(ctx, job.refId),
    logger: ctx.logger.child({ worker: 'bulk-send' }),
    now: ctx.now,
    // One at a time: each row is a write transaction, and SQLite takes one writer.
    concurrency: 1,
    timeoutMs: 30_000,
    leaseMs: 60_000,
    pollMs: 1_000,
  });
  return { name: 'bulk-send', start: () => runner.start(), stop: () => runner.stop() };
}
