import pino from 'pino';
import { formatTimestamp } from '../shared/time';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { prepareDataDir } from './db/data-dir';
import { openDatabase } from './db/open-database';
import { createRepos } from './db/repos';
import { RateLimiter } from './http/rate-limiter';
import { createWebhookRuntime } from './webhooks/runtime';

/**
 * A context over DATA_DIR without a listening server, for the CLI: it works whether or not
 * the server runs (WAL lets both open the database).
 */
export function openOfflineContext(config: Config): { ctx: AppContext; close(): void } {
  const paths = prepareDataDir(config.dataDir);
  const database = openDatabase(paths.database);
  const ctx: AppContext = {
    config,
    paths,
    db: database.db,
    repos: createRepos(database.db),
    logger: pino({ level: 'silent' }),
    rateLimiter: new RateLimiter(),
    now: () => Date.now(),
    baseUrl: () => config.publicBaseUrl ?? `http://${config.host}:${config.port}`,
    timestamp: (epochMs) => formatTimestamp(epochMs, config.timeZone),
    timestampOrNull: (epochMs) => (epochMs == null ? null : formatTimestamp(epochMs, config.timeZone)),
    webhooks: createWebhookRuntime(paths.keys),
  };
  return { ctx, close: database.close };
}
