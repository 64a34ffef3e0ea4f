import type { AppContext } from '../context/app-context';
import { createRunner } from '../jobs/runner';
import { REMINDER_QUEUE } from './plan-reminders';
import { runReminders } from './run-reminders';
import type { Worker } from '../jobs/worker';

/** Sends the automatic reminders and expiry warnings of sent contracts when they come due. */
export function createReminderWorker(ctx: AppContext): Worker {
  const runner = createRunner({
    queue: REMINDER_QUEUE,
    db: ctx.db,
    jobs: ctx.repos.jobs,
    handle: async (job) => runReminders(ctx, job.refId),
    logger: ctx.logger.child({ worker: 'reminders' }),
    now: ctx.now,
    concurrency: 1,
    timeoutMs: 30_000,
    leaseMs: 60_000,
    // Schedules shrunk to seconds (REMINDER_DAY_S in tests) want a finer look than once a second.
    pollMs: Math.min(1_000, Math.max(50, ctx.config.reminderDayMs / 10)),
  });
  return { name: 'reminders', start: () => runner.start(), stop: () => runner.stop() };
}
