import type { AppContext } from '../context';
import type { JobRow } from '../db/repos/jobs';
import type { DispatchRow } from '../db/repos/webhook-deliveries';
import { notifyWebhookDisabled } from '../services/webhooks/notify-webhook-disabled';
import { judgeAttempt } from './judge-attempt';
import type { PostResult } from './post-delivery';

/** Ten permanent errors in a row disable a consumer (interface.md section 6). */
export const PERMANENT_ERRORS_TO_DISABLE = 10;

/** A job the dispatcher has finished with: an attempt made, or nothing to do (`row` absent or not sendable). */
export type FinishedJob = {
  job: JobRow;
  row: DispatchRow | undefined;
  attempt?: { startedAt: number; result: PostResult };
};

function describeFailure(result: PostResult): string {
  if (result.error) return result.statusCode === null ? result.error : `HTTP ${result.statusCode} (${result.error})`;
  return `HTTP ${result.statusCode ?? '?'}`;
}

/**
 * Writes what came of a batch of jobs: the attempt, the delivery's state, the job (gone, or
 * due again on the schedule) and the consumer's error count, which may disable it and send the
 * notice. Call inside one transaction per batch: few commits per delivery. `erring` holds the
 * consumers this dispatcher has counted permanent errors for (kept across batches).
 */
export function settleAttempts(ctx: AppContext, finished: readonly FinishedJob[], erring: Set<number>): void {
  const { jobs, webhookDeliveries, webhookConsumers } = ctx.repos;
  const now = ctx.now();
  const schedule = ctx.config.webhookRetryScheduleS;
  const attempted = new Set<number>();
  for (const { job, row, attempt } of finished) {
    if (!row || !attempt) {
      // A pending delivery of a disabled consumer waits, held, for the enabling.
      if (row && row.state === 'pending' && row.disabledAt !== null) webhookDeliveries.hold(row.deliveryId, now);
      jobs.finish(job);
      continue;
    }
    const { result, startedAt } = attempt;
    const verdict = judgeAttempt(result, row.courseAttempts + 1, startedAt, schedule);
    const state = webhookDeliveries.settle(row.deliveryId, verdict.state, verdict.nextAttemptAt, now);
    if (state === undefined) {
      jobs.finish(job);
      continue;
    }
    attempted.add(row.consumerId);
    webhookDeliveries.insertAttempt({
      deliveryId: row.deliveryId,
      attemptedAt: startedAt,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
      responseExcerpt: result.responseExcerpt,
      outcome: verdict.outcome,
    });
    if (verdict.nextAttemptAt === null || state === 'held') jobs.finish(job);
    else jobs.retryAt(job, verdict.nextAttemptAt, describeFailure(result), now);

    // Most consumers have no errors to forget: the write is skipped unless the batch was loaded
    // with some, or this dispatcher has counted some since.
    if (verdict.outcome === 'delivered' && (row.permanentErrors > 0 || erring.has(row.consumerId))) {
      webhookConsumers.resetPermanentErrors(row.consumerId);
      erring.delete(row.consumerId);
    }
    if (!verdict.isPermanentError) continue;
    erring.add(row.consumerId);
    const count = webhookConsumers.countPermanentError(row.consumerId, now);
    if (!count || count.errors < PERMANENT_ERRORS_TO_DISABLE || count.disabledAt !== null) continue;
    if (webhookConsumers.disable(row.consumerId, now)) {
      webhookDeliveries.holdPendingOf(row.consumerId, now);
      const consumer = webhookConsumers.findById(row.consumerId);
      ctx.logger.warn({ consumerId: row.consumerId }, 'webhook consumer disabled after ten permanent errors');
      if (consumer) notifyWebhookDisabled(ctx, consumer, describeFailure(result));
    }
  }
  // An attempt made is a turn taken: the next held event of the consumer may go.
  for (const consumerId of attempted) webhookDeliveries.releaseNextHeld(consumerId, now);
}
