import { createBackupWorker } from '../backup/backup-worker';
import { createBulkSendWorker } from '../bulk/bulk-send-worker';
import type { AppContext } from '../context/app-context';
import type { Worker } from '../jobs/worker';
import { createOutboxWorker } from '../messages/outbox-worker';
import { createExpiryWorker } from '../signing/expiry-worker';
import { createTimestampWorker } from '../evidence/timestamps/timestamp-worker';
import { createAnchorWorker } from '../evidence/anchors/anchor-worker';
import { createLtvWorker } from '../evidence/ltv/ltv-worker';
import { createArchiveRenewalWorker } from '../evidence/ltv/archive-renewal-worker';
import { createReminderWorker } from '../signing/reminder-worker';
import { createWebhookWorker } from '../webhooks/webhook-worker';
import { createAcmeWorker } from '../reach/acme-worker';
import { createDiskWatchWorker } from '../settings/disk-watch-worker';

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
    createAnchorWorker(ctx),
    createLtvWorker(ctx),
    createArchiveRenewalWorker(ctx),
    createBackupWorker(ctx),
    createBulkSendWorker(ctx),
    createReminderWorker(ctx),
    createAcmeWorker(ctx),
    createDiskWatchWorker(ctx),
  ];
}
