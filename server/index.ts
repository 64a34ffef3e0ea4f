import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatTimestamp } from '../shared/time';
import { createApp } from './app';
import type { Config } from './config/config';
import type { AppContext } from './context';
import { prepareDataDir } from './db/data-dir';
import { openDatabase } from './db/open-database';
import { createRepos } from './db/repos';
import { RateLimiter } from './http/rate-limiter';
import { createLogger } from './logging/logger';
import { apiRoutes } from './routes';
import { adminPages } from './admin/admin-pages';
import { findRendererDir } from './admin/renderer-dir';
import { sessionPrincipalResolver } from './http/session-cookie';
import { createAdminState } from './services/sessions/admin-state';
import { applyGeneralSettings } from './services/settings/apply-general-settings';
import { createWorkers } from './workers';

export { loadConfig, ConfigError, type Config } from './config/config';

export type SignDeskServer = {
  /** Where the server listens, e.g. http://127.0.0.1:8750 */
  url: string;
  port: number;
  ctx: AppContext;
  /**
   * A one-time URL (valid 60 s) that signs the first active administrator in to the admin UI:
   * the desktop shell opens it in its window.
   */
  createAdminLoginUrl(): string;
  /** Stops taking requests, finishes those in flight, closes the database. */
  close(): Promise<void>;
};

const SHUTDOWN_GRACE_MS = 5_000;

function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The only door in: the server entry, the Electron shell and the tests all start SignDesk here. */
export async function createServer(options: Config): Promise<SignDeskServer> {
  // Our own copy: the admin's general settings change publicBaseUrl and timeZone in it.
  const config: Config = { ...options };
  const paths = prepareDataDir(config.dataDir);
  const logger = createLogger(paths.logs, config.logLevel);
  const database = openDatabase(paths.database);
  let listenUrl = '';
  const ctx: AppContext = {
    config,
    paths,
    db: database.db,
    repos: createRepos(database.db),
    logger,
    rateLimiter: new RateLimiter(),
    now: () => Date.now(),
    baseUrl: () => config.publicBaseUrl ?? listenUrl,
    timestamp: (epochMs) => formatTimestamp(epochMs, config.timeZone),
    timestampOrNull: (epochMs) => (epochMs === null || epochMs === undefined ? null : formatTimestamp(epochMs, config.timeZone)),
    admin: createAdminState({ publicBaseUrl: config.publicBaseUrl, timeZone: config.timeZone }),
  };
  ctx.repos.office.get(ctx.now());
  applyGeneralSettings(ctx);

  const app = createApp(ctx, {
    routes: apiRoutes,
    principalResolvers: [sessionPrincipalResolver(ctx)],
    pages: [adminPages(ctx, findRendererDir())],
  });
  const server = http.createServer({ requestTimeout: 120_000, headersTimeout: 30_000 }, app);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    database.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${linkHost(config.host)}:${port}`;
  listenUrl = url;
  logger.info({ url, dataDir: paths.root }, 'listening');
  const workers = createWorkers(ctx);
  for (const worker of workers) worker.start();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(grace);
      // Deliveries and mail in flight finish before the database closes.
      await Promise.all(workers.map((worker) => worker.stop()));
      database.close();
      logger.info('closed');
      logger.flush();
    })();
    return closing;
  };
  const createAdminLoginUrl = () => `${url}/admin/sign-in-link/${ctx.admin.loginLinks.create(ctx.now())}`;
  return { url, port, ctx, createAdminLoginUrl, close };
}
