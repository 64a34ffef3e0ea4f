import type { AppContext } from '../context/app-context';
import { WEBHOOK_QUEUE } from '../db/repos/webhook-consumers';
import type { DispatchRow } from '../db/repos/webhook-deliveries';
import type { JobRow } from '../db/repos/jobs';
import { createRunner } from '../jobs/runner';
import type { Worker } from '../jobs/worker';
import { purgeWebhookEvents } from './purge-webhook-events';
import { createAttemptSender } from './send-attempt';
import { PERMANENT_ERRORS_TO_DISABLE, settleAttempts, type AttemptResult } from './settle-attempts';

/** Deliveries in flight at once. */
export const WEBHOOK_CONCURRENCY = 16;
/** A claim outlives the longest attempt by this much; then another run may take the job over. */
const LEASE_GRACE_MS = 5_000;
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The 'webhook' worker: the queue's runner with one attempt per job, and the event log's purge
 * at start and every hour. The runner loads the claimed jobs' deliveries in one query per batch
 * and settles the attempts that finished in one turn in one transaction (settleAttempts).
 */
export function createWebhookWorker(ctx: AppContext): Worker {
  const sender = createAttemptSender(ctx);
  /** Consumers this worker has counted permanent errors for (settleAttempts). */
  const erring = new Set<number>();
  /**
   * Attempts in flight by consumer. A consumer's attempts in flight and its permanent errors so
   * far never add up to more than the ten that disable it: a receiver that never answers is
   * disabled at its tenth timeout, not after every parallel attempt has timed out too.
   */
  const inFlight = new Map<number, number>();

  /** Each consumer's released held deliveries, one after another: the end of its line. */
  const lines = new Map<number, Promise<void>>();
  const takeTurn = (consumerId: number) => {
    const ready = lines.get(consumerId) ?? Promise.resolve();
    let done = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const end = ready.then(() => finished);
    lines.set(consumerId, end);
    return {
      ready,
      done() {
        done();
        if (lines.get(consumerId) === end) lines.delete(consumerId);
      },
    };
  };

  const load = async (jobs: readonly JobRow[]): Promise<Map<number, DispatchRow>> => {
    const rows = new Map(
      (await ctx.repos.webhookDeliveries.loadForDispatch(jobs.map((job) => job.refId))).map((row) => [
        row.deliveryId,
        row,
      ]),
    );
    const byJob = new Map<number, DispatchRow>();
    for (const job of jobs) {
      const row = rows.get(job.refId);
      if (row) byJob.set(job.id, row);
    }
    return byJob;
  };

  const handle = async (job: JobRow, row: DispatchRow | undefined): Promise<AttemptResult> => {
    // Nothing to send: the delivery is gone, done, or waits for its consumer to be enabled.
    if (!row || row.state !== 'pending' || row.disabledAt !== null) return { row };
    // The row was loaded in the transaction that claimed the job, after the last batch settled:
    // its error count is current.
    const busy = inFlight.get(row.consumerId) ?? 0;
    if (busy + row.permanentErrors >= PERMANENT_ERRORS_TO_DISABLE) return { row, isDeferred: true };
    inFlight.set(row.consumerId, busy + 1);
    // Released from held: after the consumer's previous one (the runner claims them in event order).
    const turn = row.inOrder ? takeTurn(row.consumerId) : undefined;
    try {
      await turn?.ready;
      return { row, attempt: await sender.send(row) };
    } catch (err) {
      ctx.logger.error({ err, jobId: job.id }, 'webhook attempt crashed');
      const result = { statusCode: null, error: String(err), isTimeout: false, responseExcerpt: '', durationMs: 0 };
      return { row, attempt: { startedAt: ctx.now(), result } };
    } finally {
      turn?.done();
      // Still counted until its outcome is settled (settle, below): a batch claimed before that
      // reads the consumer's error count without this attempt's error.
      counted.add(job.id);
    }
  };
  /** Jobs whose attempt is counted in `inFlight` until settled. */
  const counted = new Set<number>();
  const release = (jobId: number, consumerId: number) => {
    if (!counted.delete(jobId)) return;
    const left = (inFlight.get(consumerId) ?? 1) - 1;
    if (left > 0) inFlight.set(consumerId, left);
    else inFlight.delete(consumerId);
  };

  const runner = createRunner({
    queue: WEBHOOK_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    logger: ctx.logger.child({ worker: 'webhook' }),
    now: ctx.now,
    concurrency: WEBHOOK_CONCURRENCY,
    leaseMs: ctx.config.webhookTimeoutMs + LEASE_GRACE_MS,
    // postDelivery bounds an attempt by the same time on its own.
    timeoutMs: ctx.config.webhookTimeoutMs,
    load,
    handle,
    settle: async (finished, finalize) => {
      try {
        await settleAttempts(ctx, finished, finalize, erring);
      } finally {
        // The batch's errors are in the transaction the next claim's rows are read after. A
        // failed settle releases too: its batch may be dropped, and a count kept for ever would
        // defer the consumer's every delivery until a restart.
        for (const { job, result } of finished) if (result.row) release(job.id, result.row.consumerId);
      }
    },
  });

  let purgeTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  const purge = async () => {
    try {
      const purged = await purgeWebhookEvents(ctx);
      if (purged > 0) ctx.logger.info({ purged }, 'purged webhook events older than one month');
    } catch (err) {
      ctx.logger.error({ err }, 'purging webhook events failed');
    }
  };
  return {
    name: 'webhook',
    async start() {
      await purge();
      purgeTimer = setInterval(() => void purge(), PURGE_INTERVAL_MS);
      purgeTimer.unref();
      unsubscribe = ctx.webhooks.onWake(() => runner.wake());
      runner.start();
    },
    async stop() {
      clearInterval(purgeTimer);
      unsubscribe?.();
      // The attempts in flight finish and are recorded before the sockets close.
      await runner.stop();
      sender.close();
    },
  };
}
