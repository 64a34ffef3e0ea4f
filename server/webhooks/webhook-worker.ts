import type { AppContext } from '../core/context';
import { purgeWebhookEvents } from './purge-webhook-events';
import type { Worker } from '../app/workers';
import { createWebhookDispatcher } from './dispatcher';

const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** The 'webhook' worker: the dispatcher, and the event log's purge at start and every hour. */
export function createWebhookWorker(ctx: AppContext): Worker {
  const dispatcher = createWebhookDispatcher(ctx);
  let purgeTimer: NodeJS.Timeout | undefined;
  const purge = () => {
    try {
      const purged = purgeWebhookEvents(ctx);
      if (purged > 0) ctx.logger.info({ purged }, 'purged webhook events older than one month');
    } catch (err) {
      ctx.logger.error({ err }, 'purging webhook events failed');
    }
  };
  return {
    name: 'webhook',
    start() {
      purge();
      purgeTimer = setInterval(purge, PURGE_INTERVAL_MS);
      purgeTimer.unref();
      dispatcher.start();
    },
    async stop() {
      clearInterval(purgeTimer);
      await dispatcher.stop();
    },
  };
}
