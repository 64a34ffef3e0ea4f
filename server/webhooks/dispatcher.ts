import type { AppContext } from '../core/context';
import { WebhookKeyError } from '../crypto/webhook-keys';
import { inTransaction } from '../db/open-database';
import type { JobRow } from '../db/repos/jobs';
import { WEBHOOK_QUEUE } from '../db/repos/webhook-consumers';
import type { DispatchRow } from '../db/repos/webhook-deliveries';
import { signWebhookRequest } from './http-signature';
import { createAgents, postDelivery, type PostResult } from './post-delivery';
import { webhookKeyId } from './runtime';
import { settleAttempts, type FinishedJob } from './settle-attempts';

export type WebhookDispatcherOptions = {
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** The longest sleep without a look at the queue (another process may enqueue). */
  pollMs?: number;
};

export type WebhookDispatcher = {
  start(): void;
  wake(): void;
  /** Stops claiming, lets the attempts in flight finish and records them. */
  stop(): Promise<void>;
};

export const WEBHOOK_CONCURRENCY = 16;
/** A claim outlives the longest attempt by this much; then another run may take the job over. */
const LEASE_GRACE_MS = 5_000;
const SETTLE_RETRY_MS = 1_000;
const MAX_SETTLE_FAILURES = 3;

/**
 * The webhook sender over the durable 'webhook' queue. Unlike the generic runner it works in
 * batches: one transaction per turn of the event loop records every attempt that finished
 * and claims as many due jobs as there are free slots, and one query loads what they need.
 * Key objects and keep-alive sockets are reused across attempts.
 */
export function createWebhookDispatcher(ctx: AppContext, options: WebhookDispatcherOptions = {}): WebhookDispatcher {
  const concurrency = options.concurrency ?? WEBHOOK_CONCURRENCY;
  const pollMs = options.pollMs ?? 1_000;
  const timeoutMs = ctx.config.webhookTimeoutMs;
  const leaseMs = timeoutMs + LEASE_GRACE_MS;
  const agents = createAgents(ctx.outbound);
  const urls = new Map<string, URL>();
  /** Jobs in flight by id, holding the latest claim (a re-claim of our own job only renews its token). */
  const inFlight = new Map<number, JobRow>();
  let finished: FinishedJob[] = [];
  const erring = new Set<number>();
  let settleFailures = 0;
  let isStarted = false;
  let isStopped = false;
  let isTickQueued = false;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  let drained: (() => void) | undefined;

  const urlOf = (text: string): URL => {
    let url = urls.get(text);
    if (!url) {
      if (urls.size > 1_000) urls.clear();
      url = new URL(text);
      urls.set(text, url);
    }
    return url;
  };

  const attempt = async (row: DispatchRow): Promise<{ startedAt: number; result: PostResult }> => {
    const startedAt = ctx.now();
    let headers: Record<string, string>;
    const url = urlOf(row.url);
    const body = Buffer.from(row.payload);
    try {
      const signer = ctx.webhooks.keyring.signerFor(row.consumerId, row.publicKey, row.sealedSecretKey);
      headers = signWebhookRequest({ url, body, keyId: webhookKeyId(row.consumerId), signer, nowMs: startedAt });
      // Not a covered component (the signature's components are fixed): it names the event for de-duplication.
      headers['webhook-id'] = String(row.eventId);
    } catch (err) {
      if (!(err instanceof WebhookKeyError)) throw err;
      ctx.logger.error({ err, consumerId: row.consumerId }, 'cannot sign a webhook delivery');
      const error = `not sent: ${err.message}`;
      return { startedAt, result: { statusCode: null, error, isTimeout: false, responseExcerpt: '', durationMs: 0 } };
    }
    return { startedAt, result: await postDelivery(url, headers, body, timeoutMs, agents) };
  };

  const run = (job: JobRow, row: DispatchRow | undefined) => {
    // Nothing to send: the delivery is gone, done, or waits for its consumer to be enabled.
    if (!row || row.state !== 'pending' || row.disabledAt !== null) {
      finished.push({ job, row });
      queueTick();
      return;
    }
    attempt(row)
      .then(
        (done) => finished.push({ job, row, attempt: done }),
        (err: unknown) => {
          ctx.logger.error({ err, jobId: job.id }, 'webhook attempt crashed');
          const result: PostResult = {
            statusCode: null,
            error: String(err),
            isTimeout: false,
            responseExcerpt: '',
            durationMs: 0,
          };
          finished.push({ job, row, attempt: { startedAt: ctx.now(), result } });
        },
      )
      .finally(queueTick);
  };

  const startClaimed = (claimed: JobRow[]) => {
    const fresh: JobRow[] = [];
    for (const job of claimed) {
      const running = inFlight.get(job.id);
      if (running) running.claimToken = job.claimToken;
      else {
        inFlight.set(job.id, job);
        fresh.push(job);
      }
    }
    if (fresh.length === 0) return;
    let rows: Map<number, DispatchRow>;
    try {
      rows = new Map(
        ctx.repos.webhookDeliveries.loadForDispatch(fresh.map((job) => job.refId)).map((row) => [row.deliveryId, row]),
      );
    } catch (err) {
      // Not started: forget them here, so that the claims, once expired, are taken up again.
      ctx.logger.error({ err }, 'loading webhook deliveries failed');
      for (const job of fresh) inFlight.delete(job.id);
      return;
    }
    for (const job of fresh) run(job, rows.get(job.refId));
  };

  const scheduleLook = () => {
    clearTimeout(timer);
    let delay = pollMs;
    try {
      const dueAt = ctx.repos.jobs.nextDueAt(WEBHOOK_QUEUE);
      if (dueAt !== undefined) delay = Math.max(0, Math.min(pollMs, dueAt - ctx.now()));
    } catch (err) {
      ctx.logger.error({ err }, 'reading the webhook queue failed');
    }
    timer = setTimeout(queueTick, delay);
    timer.unref();
  };

  const tick = () => {
    isTickQueued = false;
    if (isStopped) return;
    const batch = finished;
    finished = [];
    // Settle with the latest claim token of each job.
    const settled = batch.map((done) => ({ ...done, job: inFlight.get(done.job.id) ?? done.job }));
    let claimed: JobRow[] = [];
    try {
      claimed = inTransaction(ctx.db, () => {
        if (settled.length > 0) settleAttempts(ctx, settled, erring);
        const free = isStarted ? concurrency - (inFlight.size - settled.length) : 0;
        return free > 0 ? ctx.repos.jobs.claim(WEBHOOK_QUEUE, free, ctx.now(), leaseMs) : [];
      });
      settleFailures = 0;
      for (const done of settled) inFlight.delete(done.job.id);
    } catch (err) {
      // Keep the results for another try; after a few, let the leases expire (the jobs run again).
      settleFailures += 1;
      ctx.logger.error({ err, settleFailures }, 'recording webhook attempts failed');
      if (settleFailures < MAX_SETTLE_FAILURES) finished.unshift(...batch);
      else for (const done of settled) inFlight.delete(done.job.id);
      setTimeout(queueTick, SETTLE_RETRY_MS).unref();
    }
    startClaimed(claimed);
    if (isStarted && inFlight.size < concurrency) scheduleLook();
    if (!isStarted && inFlight.size === 0 && finished.length === 0) drained?.();
  };

  function queueTick() {
    if (isTickQueued) return;
    isTickQueued = true;
    setImmediate(tick);
  }

  return {
    start() {
      if (isStarted) return;
      isStarted = true;
      unsubscribe = ctx.webhooks.onWake(queueTick);
      queueTick();
    },
    wake: queueTick,
    async stop() {
      isStarted = false;
      clearTimeout(timer);
      unsubscribe?.();
      if (inFlight.size > 0 || finished.length > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          queueTick();
        });
      }
      isStopped = true;
      agents.destroy();
    },
  };
}
