import { createBackupWorker } from '../backup/backup-worker';
import { createBulkSendWorker } from '../bulk/bulk-send-worker';
import type { AppContext } from '../core/context';
import { createOutboxWorker } from '../messages/outbox-worker';
import { createExpiryWorker } from '../signing/expiry-worker';
import { createTimestampWorker } from '../evidence/timestamps/timestamp-worker';
import { createLtvWorker } from '../evidence/ltv/ltv-worker';
import { createArchiveRenewalWorker } from '../evidence/ltv/archive-renewal-worker';
import { createReminderWorker } from '../signing/reminder-worker';
import { createWebhookWorker } from '../webhooks/webhook-worker';

/** A background loop of the service (webhook deliveries, the mail and SMS outbox). */
export type Worker = {
  name: string;
  start(): void;
  /** Stops taking new work and resolves when the work in flight has finished. */
  stop(): Promise<void>;
};

/**
 * Every background worker, started after the server listens and stopped (drained) before the
 * database closes. One line per worker.
 */
export function createWorkers(ctx: AppContext): Worker[] {
  return [
    createOutboxWorker(ctx),
    createWebhookWorker(ctx),
    createExpiryWorker(ctx),
    createTimestampWorker(ctx),
    createLtvWorker(ctx),
    createArchiveRenewalWorker(ctx),
    createBackupWorker(ctx),
    createBulkSendWorker(ctx),
    createReminderWorker(ctx),
  ];
}
