import http from 'node:http';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';
import type { TServerStatus } from '../shared/host-messages';
import { createApp } from './app/app';
import { createContext } from './app/create-context';
import type { Config } from './config/config';
import type { AppContext } from './core/context';
import type { Clock } from './core/clock';
import { prepareDataDir } from './db/data-dir';
import { lockDataDir } from './db/data-dir-lock';
import { removeStaleScratch } from './backup/scratch-dir';
import { startCheckpointer } from './db/checkpointer';
import { openDatabase } from './db/open-database';
import { createLogger } from './logging/logger';
import { apiRoutes } from './app/routes';
import { adminPages } from './admin/admin-pages';
import { findBuiltDir, findRendererDir } from './admin/renderer-dir';
import { signingPages } from './signing/signing-pages';
import { verifyPages } from './verify/verify-pages';
import { sessionPrincipalResolver } from './http/session-cookie';
import { resolveStaticDirs, type StaticDirs } from './app/static-dirs';
import { createWorkers } from './app/workers';
import { answerClientError } from './http/client-error';

export { loadConfig, ConfigError, type Config } from './config/config';

export type SignDeskServer = {
  /** Where the server listens, e.g. http://127.0.0.1:8750 */
  url: string;
  port: number;
  ctx: AppContext;
  /** The Express app, for tests that inspect what the server answers. */
  app: Express;
  /** What the desktop shell's tray shows: the address and the work waiting in the queues. */
  status(): TServerStatus;
  /**
   * A one-time URL (valid 60 s) that signs the first active administrator in to the admin UI:
   * the desktop shell opens it in its window.
   */
  createAdminLoginUrl(): string;
  /** Stops taking requests, finishes those in flight, closes the database. */
  close(): Promise<void>;
};

export type ServerOptions = {
  /** Where the drizzle migrations are; the bundled server (dist/server) passes its own copy. */
  migrationsFolder?: string;
  /** better-sqlite3's addon for Electron's ABI when the shell runs from a development checkout. */
  sqliteBinding?: string;
  /** The built admin UI and signing page; default the checkout's dist/ (see static-dirs.ts). */
  staticDirs?: Partial<StaticDirs>;
  /** The time the server goes by; the system's unless a test hands in its own. */
  clock?: Clock;
  /** What holds DATA_DIR, in the message a second server on it shows (default "server"). */
  lockRole?: string;
};

const SHUTDOWN_GRACE_MS = 5_000;

function linkHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** The only door in: the server entry, the Electron shell and the tests all start SignDesk here. */
export async function createServer(given: Config, options: ServerOptions = {}): Promise<SignDeskServer> {
  // Our own copy: the admin's general settings change publicBaseUrl and timeZone in it.
  const config: Config = { ...given };
  const paths = prepareDataDir(config.dataDir);
  // One server per DATA_DIR: a second one stops here (DataDirBusy) before it touches anything.
  const lock = lockDataDir(paths.root, options.lockRole ?? 'server', { nativeBinding: options.sqliteBinding });
  let database: ReturnType<typeof openDatabase>;
  let scratchRemoved: string[];
  try {
    scratchRemoved = removeStaleScratch(paths.root);
    database = openDatabase(paths.database, {
      migrationsFolder: options.migrationsFolder,
      nativeBinding: options.sqliteBinding,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
  const logger = createLogger(paths.logs, config.logLevel);
  if (scratchRemoved.length > 0) logger.info({ scratchRemoved }, 'removed scratch folders an earlier run left');
  let listenUrl = '';
  const ctx = createContext({
    config,
    paths,
    db: database.db,
    logger,
    baseUrl: () => config.publicBaseUrl ?? listenUrl,
    migrationsFolder: options.migrationsFolder,
    clock: options.clock,
  });
  ctx.repos.office.get(ctx.now());

  const staticDirs = resolveStaticDirs(options.staticDirs);
  const { app, listener } = createApp(ctx, {
    routes: apiRoutes,
    principalResolvers: [sessionPrincipalResolver(ctx)],
    pages: [
      adminPages(ctx, findRendererDir(staticDirs.renderer)),
      signingPages(ctx, findBuiltDir('signing', staticDirs.signing)),
      verifyPages(ctx, findBuiltDir('signing', staticDirs.signing)),
    ],
    examplesDir: staticDirs.examples,
  });
  const server = http.createServer({ requestTimeout: 120_000, headersTimeout: 30_000 }, listener);
  server.on(
    'clientError',
    answerClientError(() => ctx.baseUrl()),
  );
  // Responses still being made when shutdown begins close their connection after they are
  // sent, so a keep-alive client does not hold the shutdown until the grace period ends.
  const unanswered = new Set<http.ServerResponse>();
  // One listener function for every response: no closure made per request.
  function forgetResponse(this: http.ServerResponse): void {
    unanswered.delete(this);
  }
  server.on('request', (_req, res: http.ServerResponse) => {
    unanswered.add(res);
    res.on('close', forgetResponse);
  });
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
    lock.release();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${linkHost(config.host)}:${port}`;
  listenUrl = url;
  // Webhooks, SMTP and SMS gateways may not be pointed back at this server.
  ctx.outbound.addOwnPort(port);
  logger.info({ url, dataDir: paths.root }, 'listening');
  lock.setAddress(url);
  const checkpointer = startCheckpointer({
    file: paths.database,
    sqlite: database.sqlite,
    logger,
    nativeBinding: options.sqliteBinding,
  });
  const workers = createWorkers(ctx);
  for (const worker of workers) worker.start();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearTimeout(grace);
      // Deliveries and mail in flight finish before the database closes.
      await Promise.all(workers.map((worker) => worker.stop()));
      await ctx.pdf.close();
      await checkpointer.stop();
      database.close();
      lock.release();
      logger.info('closed');
      logger.flush();
    })();
    return closing;
  };
  const status = (): TServerStatus => ({
    url,
    baseUrl: ctx.baseUrl(),
    queuedDeliveries: ctx.repos.jobs.countPending('webhook'),
    // Messages waiting for SMTP settings have no job, so the outbox counts its own rows.
    outboxPending: ctx.repos.outbox.countPending(),
  });
  const createAdminLoginUrl = () => `${url}/admin/sign-in-link/${ctx.admin.loginLinks.create(ctx.now())}`;
  return { url, port, ctx, app, status, createAdminLoginUrl, close };
}
