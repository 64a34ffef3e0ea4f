import type { AppContext } from '../context/app-context';
import type { DispatchRow } from '../db/repos/webhook-deliveries';
import type { Finalize, FinishedJob, JobOutcome } from '../jobs/runner';
import { notifyWebhookDisabled } from './notify-webhook-disabled';
import { judgeAttempt } from './judge-attempt';
import { releaseHeld } from './release-held';
import type { PostResult } from './post-delivery';

/** Ten permanent errors in a row disable a consumer (docs/decisions.md, "Webhooks"). */
export const PERMANENT_ERRORS_TO_DISABLE = 10;

/** What came of a webhook job: an attempt made, or nothing to do (`row` absent or not sendable). */
export type AttemptResult = {
  row: DispatchRow | undefined;
  attempt?: { startedAt: number; result: PostResult };
  /** Not tried: as many attempts to its consumer are in flight as errors would disable it (webhook-worker.ts). */
  isDeferred?: boolean;
};

/** A deferred attempt is due again this soon: by then the attempts in flight have an outcome. */
const DEFER_MS = 1_000;

const DONE: JobOutcome = { kind: 'done' };

function describeFailure(result: PostResult): string {
  if (result.error) return result.statusCode === null ? result.error : `HTTP ${result.statusCode} (${result.error})`;
  return `HTTP ${result.statusCode ?? '?'}`;
}

/**
 * Writes what came of a batch of jobs: the attempt, the delivery's state, the job (gone, or
 * due again on the schedule) and the consumer's error count, which may disable it and send the
 * notice. The runner calls it inside the transaction that settles the batch: few commits per
 * delivery. `erring` holds the consumers this worker has counted permanent errors for (kept
 * across batches).
 */
export async function settleAttempts(
  ctx: AppContext,
  finished: readonly FinishedJob<AttemptResult>[],
  finalize: Finalize,
  erring: Set<number>,
): Promise<void> {
  const { webhookDeliveries, webhookConsumers } = ctx.repos;
  const now = ctx.now();
  const schedule = ctx.config.webhookRetryScheduleS;
  const attempted = new Set<number>();
  for (const {
    job,
    result: { row, attempt, isDeferred },
  } of finished) {
    if (isDeferred) {
      await finalize(job, {
        kind: 'retry',
        at: now + DEFER_MS,
        error: 'waiting for the attempts in flight to this consumer',
      });
      continue;
    }
    if (!row || !attempt) {
      // A pending delivery of a disabled consumer waits, held, for the enabling.
      if (row && row.state === 'pending' && row.disabledAt !== null) await webhookDeliveries.hold(row.deliveryId, now);
      await finalize(job, DONE);
      continue;
    }
    const { result, startedAt } = attempt;
    const verdict = judgeAttempt(result, row.courseAttempts + 1, startedAt, schedule);
    const state = await webhookDeliveries.settle(row.deliveryId, verdict.state, verdict.nextAttemptAt, now);
    if (state === undefined) {
      await finalize(job, DONE);
      continue;
    }
    attempted.add(row.consumerId);
    await webhookDeliveries.insertAttempt({
      deliveryId: row.deliveryId,
      attemptedAt: startedAt,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      responseExcerpt: result.responseExcerpt,
      outcome: verdict.outcome,
    });
    // Before the consumer may be disabled below: the disabling takes away the queued jobs of what it holds.
    await finalize(
      job,
      verdict.nextAttemptAt === null || state === 'held'
        ? DONE
        : { kind: 'retry', at: verdict.nextAttemptAt, error: describeFailure(result) },
    );

    // Most consumers have no errors to forget: the write is skipped unless the batch was loaded
    // with some, or this worker has counted some since.
    if (verdict.outcome === 'delivered' && (row.permanentErrors > 0 || erring.has(row.consumerId))) {
      await webhookConsumers.resetPermanentErrors(row.consumerId);
      erring.delete(row.consumerId);
    }
    if (!verdict.isPermanentError) continue;
    erring.add(row.consumerId);
    const count = await webhookConsumers.countPermanentError(row.consumerId, now);
    if (!count || count.errors < PERMANENT_ERRORS_TO_DISABLE || count.disabledAt !== null) continue;
    if (await webhookConsumers.disable(row.consumerId, now)) {
      await webhookDeliveries.holdPendingOf(row.consumerId, now);
      const consumer = await webhookConsumers.findById(row.consumerId);
      ctx.logger.warn({ consumerId: row.consumerId }, 'webhook consumer disabled after ten permanent errors');
      if (consumer) await notifyWebhookDisabled(ctx, consumer, describeFailure(result));
    }
  }
  // An attempt made is a turn taken: the next held events of the consumer may go.
  for (const consumerId of attempted) await releaseHeld(ctx, consumerId, now);
}
