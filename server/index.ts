import http from 'node:http';
import type { Express } from 'express';
import type { TServerStatus } from '../shared/host-messages';
import { createApp } from './app/app';
import { createContext } from './app/create-context';
import type { Config } from './config/config';
import type { AppContext } from './context/app-context';
import type { Clock } from './core/clock';
import { prepareDataDir } from './db/data-dir';
import { lockDataDir } from './db/data-dir-lock';
import { removeStaleScratch } from './backup/scratch-dir';
import { startCheckpointer } from './db/checkpointer';
import { openStorage, type Storage } from './app/open-storage';
import { sqliteOf } from './db/database';
import { sweepUnclaimedFiles } from './db/file-store';
import { createLogger, logWritten } from './logging/logger';
import { apiRoutes } from './app/routes';
import { adminPages } from './admin/admin-pages';
import { findBuiltDir, findRendererDir } from './admin/renderer-dir';
import { signingPages } from './sign/signing-pages';
import { verifyPages } from './verify/verify-pages';
import { sessionPrincipalResolver } from './http/session-cookie';
import { resolveStaticDirs, type StaticDirs } from './app/static-dirs';
import { createWorkers } from './app/workers';
import { startAcmeHttpListener, type AcmeHttpListener } from './reach/acme-http-listener';
import { acmeDomainOf } from './context/acme-runtime';
import { listen, type RunningListener } from './app/listen';
import { SERVER_TIMEOUTS, startPublicListener } from './app/public-listener';
import { withTransportSecurity, type ProxyTrust } from './http/transport-security';
import { baseUrlsOf, linkHost } from './reach/public-surface';
import { reachPages } from './reach/reach-pages';
import { answerClientError } from './http/client-error';

export { loadConfig, ConfigError, type Config } from './config/config';

export type SignDeskServer = {
  /** Where the server listens, e.g. http://127.0.0.1:8750 */
  url: string;
  port: number;
  /** Where the party surface listens (PUBLIC_PORT), e.g. https://127.0.0.1:8443; undefined without it. */
  publicUrl: string | undefined;
  ctx: AppContext;
  /** The Express app, for tests that inspect what the server answers. */
  app: Express;
  /** What the desktop shell's tray shows: the address and the work waiting in the queues. */
  status(): Promise<TServerStatus>;
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
  /** Where PostgreSQL's migrations are, likewise. */
  pgMigrationsFolder?: string;
  /** better-sqlite3's addon for Electron's ABI when the shell runs from a development checkout. */
  sqliteBinding?: string;
  /** The built admin UI and signing page; default the checkout's dist/ (see static-dirs.ts). */
  staticDirs?: Partial<StaticDirs>;
  /** The time the server goes by; the system's unless a test hands in its own. */
  clock?: Clock;
  /** What holds DATA_DIR, in the message a second server on it shows (default "server"). */
  lockRole?: string;
};

/** The only door in: the server entry, the Electron shell and the tests all start SignDesk here. */
export async function createServer(given: Config, options: ServerOptions = {}): Promise<SignDeskServer> {
  // Our own copy: the admin's general settings change publicBaseUrl and timeZone in it.
  const config: Config = { ...given };
  const paths = prepareDataDir(config.dataDir);
  // One server per DATA_DIR: a second one stops here (DataDirBusy) before it touches anything.
  const lock = lockDataDir(paths.root, options.lockRole ?? 'server', { nativeBinding: options.sqliteBinding });
  let storage: Storage;
  let scratchRemoved: string[];
  let filesRemoved: number;
  try {
    scratchRemoved = removeStaleScratch(paths.root);
    storage = await openStorage(config, paths, {
      migrationsFolder: options.migrationsFolder,
      pgMigrationsFolder: options.pgMigrationsFolder,
      nativeBinding: options.sqliteBinding,
    });
  } catch (err) {
    lock.release();
    throw err;
  }
  try {
    filesRemoved = await sweepUnclaimedFiles(storage.db, paths.files);
  } catch (err) {
    await storage.close();
    lock.release();
    throw err;
  }
  const logger = createLogger(paths.logs, config.logLevel);
  if (scratchRemoved.length > 0) logger.info({ scratchRemoved }, 'removed scratch folders an earlier run left');
  if (filesRemoved > 0) logger.info({ filesRemoved }, 'removed stored files no contract or template uses any more');
  let listenUrl = '';
  const partyListener: { url?: string } = {};
  const ctx = await createContext({
    config,
    paths,
    db: storage.db,
    keys: storage.keys,
    logger,
    ...baseUrlsOf(
      config,
      () => listenUrl,
      () => partyListener.url,
    ),
    migrationsFolder: options.migrationsFolder,
    sqliteBinding: options.sqliteBinding,
    clock: options.clock,
  });
  await ctx.repos.office.get(ctx.now());
  // A request in flight when the process stopped has no answer to repeat: its key is free again.
  await ctx.repos.idempotency.releaseUnanswered();

  const staticDirs = resolveStaticDirs(options.staticDirs);
  const { app, listener } = createApp(ctx, {
    routes: apiRoutes,
    principalResolvers: [sessionPrincipalResolver(ctx)],
    pages: [
      adminPages(ctx, findRendererDir(staticDirs.renderer)),
      signingPages(ctx, findBuiltDir('signing', staticDirs.signing)),
      verifyPages(ctx, findBuiltDir('signing', staticDirs.signing)),
      reachPages(ctx),
    ],
    examplesDir: staticDirs.examples,
  });
  // X-Forwarded-For/-Proto/-Host count only from TRUSTED_PROXIES peers, on both surfaces:
  // req.ip (the activity log, throttles) and req.protocol follow Express's trust rule.
  const trust = app.get('trust proxy fn') as ProxyTrust;
  const server = http.createServer(SERVER_TIMEOUTS, withTransportSecurity(listener, trust));
  let office: RunningListener;
  let party: Awaited<ReturnType<typeof startPublicListener>>;
  let acmeListener: AcmeHttpListener | undefined;
  server.on(
    'clientError',
    answerClientError(() => ctx.baseUrl()),
  );
  try {
    office = await listen(server, config.port, config.host);
    // Known before the party listener starts: requests may already arrive at the office's.
    listenUrl = `http://${linkHost(config.host)}:${office.port}`;
    ctx.reach.officePort = office.port;
    party = await startPublicListener(ctx, listener, trust).catch(async (error: unknown) => {
      await office.close();
      throw error;
    });
    // The CA's HTTP-01 checks (port 80 from the internet), listening before the ACME job orders.
    // One that cannot listen (port 80 taken, or not this user's to take) keeps the office and the
    // parties served: the ACME card says why no certificate can be had.
    if (acmeDomainOf(config))
      acmeListener = await startAcmeHttpListener(ctx, config.publicHost).catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code ?? String(error);
        ctx.acme.listenerError = `the HTTP-01 listener could not listen on ${config.publicHost} port ${config.acme.httpPort} (${code}): the CA cannot check this domain`;
        logger.error({ err: error }, ctx.acme.listenerError);
        return undefined;
      });
  } catch (err) {
    await storage.close();
    lock.release();
    throw err;
  }
  partyListener.url = party?.url;
  const port = office.port;
  const url = listenUrl;
  // Webhooks, SMTP and SMS gateways may not be pointed back at this server.
  ctx.outbound.addOwnPort(port);
  if (party) ctx.outbound.addOwnPort(party.port);
  if (acmeListener) ctx.outbound.addOwnPort(acmeListener.port);
  logger.info({ url, publicUrl: party?.url, dataDir: paths.root }, 'listening');
  lock.setAddress(url);
  // SQLite's WAL is copied into the database on a thread of its own; PostgreSQL does its own.
  const checkpointer =
    storage.db.dialect === 'sqlite'
      ? startCheckpointer({
          file: paths.database,
          sqlite: sqliteOf(storage.db).sqlite,
          logger,
          nativeBinding: options.sqliteBinding,
        })
      : undefined;
  const workers = createWorkers(ctx);
  for (const worker of workers) await worker.start();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await Promise.all([office.close(), party?.close(), acmeListener?.close()]);
      // Deliveries and mail in flight finish before the database closes.
      await Promise.all(workers.map((worker) => worker.stop()));
      await ctx.pdf.close();
      await ctx.search.close();
      await checkpointer?.stop();
      await storage.close();
      lock.release();
      logger.info('closed');
      // The host exits right after: the last lines are on disk first (a write under way would leave them behind).
      await logWritten(logger);
    })();
    return closing;
  };
  const status = async (): Promise<TServerStatus> => ({
    url,
    baseUrl: ctx.baseUrl(),
    publicBaseUrl: ctx.partyBaseUrl(),
    queuedDeliveries: await ctx.repos.jobs.countPending('webhook'),
    // Messages waiting for SMTP settings have no job, so the outbox counts its own rows.
    outboxPending: await ctx.repos.outbox.countPending(),
  });
  const createAdminLoginUrl = () => `${url}/admin/sign-in-link/${ctx.admin.loginLinks.create(ctx.now())}`;
  return { url, port, publicUrl: party?.url, ctx, app, status, createAdminLoginUrl, close };
}
