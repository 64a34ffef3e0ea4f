import type { AppContext } from '../context/app-context';
import { inTransaction } from '../db/open-database';
import type { JobRow } from '../db/repos/jobs';
import { createRunner, type JobOutcome } from '../jobs/runner';
import { createSmtpSender, SMTP_POOL } from './mail/smtp-sender';
import { releaseWaitingMessages } from './release-waiting-messages';
import { readMessagingSettings } from './messaging-settings';
import type { Worker } from '../jobs/worker';
import { deliverMessage, messageIdFor } from './deliver-message';
import { recordAttempt } from './record-attempt';

const DONE: JobOutcome = { kind: 'done' };
/**
 * Messages in flight at once: twice the SMTP pool's connections, so that while one message of a
 * connection is being recorded the next is already waiting for it (the runner claims its jobs
 * in batches). With 4 in flight on 2 connections mail fell to about 2 a second under load
 * (load review 2026-11-26).
 */
export const OUTBOX_CONCURRENCY = 2 * SMTP_POOL.maxConnections;
/** How long a crashed process's job waits before another run takes it (renewed every third of it while it runs). */
const LEASE_MS = 5_000;

/**
 * The 'outbox' worker: one job per message. Each attempt is marked `sending` before the network
 * call and recorded after it, so a crash in between sends the message again after the job's
 * lease expires (at worst twice, never lost). A message whose channel has no server configured
 * waits without using up attempts.
 */
export function createOutboxWorker(ctx: AppContext): Worker {
  const logger = ctx.logger.child({ worker: 'outbox' });
  const smtp = createSmtpSender({ timeoutMs: ctx.config.outboxTimeoutMs, isPooled: true, policy: ctx.outbound });
  const scheduleS = ctx.config.outboxRetryScheduleS;
  // Connect, greeting and a few socket timeouts of SMTP fit in one attempt's time. The lease is
  // renewed while an attempt runs, so a job whose process died is taken over after LEASE_MS.
  const timeoutMs = ctx.config.outboxTimeoutMs * 6;

  const handle = async (job: JobRow, signal: AbortSignal): Promise<JobOutcome> => {
    const row = await ctx.repos.outbox.findById(job.refId);
    if (!row || (row.state !== 'queued' && row.state !== 'sending')) return DONE;
    const settings = await readMessagingSettings(ctx);
    const target = row.channel === 'email' ? settings.smtpUrl : settings.smsGatewayUrl;
    // Checked and marked without a pause, so a settings change cannot slip in between.
    if (target === undefined) {
      await ctx.repos.outbox.waitForConfig(row.id, ctx.now());
      logger.info({ outboxId: row.id, channel: row.channel }, 'message waits for its channel to be configured');
      return DONE;
    }
    const isStarted = await inTransaction(ctx.db, async () =>
      ctx.repos.outbox.startAttempt(row.id, ctx.now(), await messageIdFor(ctx, settings, row)),
    );
    const attempt = isStarted ? await ctx.repos.outbox.findById(row.id) : undefined;
    if (!attempt) return DONE;

    const result = await deliverMessage(ctx, smtp, attempt, settings, signal);
    const plan = await recordAttempt(ctx, attempt, result, scheduleS);
    logger.info(
      {
        outboxId: row.id,
        channel: row.channel,
        purpose: row.purpose,
        state: plan.record.state,
        attempts: attempt.attempts,
        error: result.error,
      },
      'outbox attempt',
    );
    return plan.retryAt === undefined ? DONE : { kind: 'retry', at: plan.retryAt, error: result.error ?? 'retry' };
  };

  const runner = createRunner({
    queue: 'outbox',
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle,
    logger,
    now: ctx.now,
    concurrency: OUTBOX_CONCURRENCY,
    timeoutMs,
    leaseMs: LEASE_MS,
  });
  let unlisten: (() => void) | undefined;

  return {
    name: 'outbox',
    async start() {
      unlisten = ctx.outbox.listen(() => runner.wake());
      const released = await releaseWaitingMessages(ctx);
      if (released > 0) logger.info({ released }, 'released messages that waited for configuration');
      runner.start();
    },
    async stop() {
      unlisten?.();
      await runner.stop();
      smtp.close();
    },
  };
}
