import pino from 'pino';
import { formatTimestamp } from '../shared/time';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { prepareDataDir } from './db/data-dir';
import { openDatabase } from './db/open-database';
import { createRepos } from './db/repos';
import { RateLimiter } from './http/rate-limiter';
import { createAdminState } from './services/sessions/admin-state';
import { applyGeneralSettings } from './services/settings/apply-general-settings';

/**
 * A context over DATA_DIR without a listening server, for the CLI: it works whether or not
 * the server runs (WAL lets both open the database).
 */
export function openOfflineContext(options: Config): { ctx: AppContext; close(): void } {
  const config: Config = { ...options };
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
    admin: createAdminState({ publicBaseUrl: config.publicBaseUrl, timeZone: config.timeZone }),
  };
  applyGeneralSettings(ctx);
  return { ctx, close: database.close };
}
