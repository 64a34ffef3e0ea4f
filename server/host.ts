import path from 'node:path';
import { parseHostRequest, type THostEvent, type THostRequest } from '../shared/host-messages';
import { ConfigError, createServer, loadConfig, type SignDeskServer } from './index';
import { filesOfEntry } from './app/static-dirs';
import { ACTIVE_ADMINISTRATOR } from './policies/actors';

/**
 * The server's process entry under the desktop shell. Electron starts it with
 * `utilityProcess.fork` (messages over `process.parentPort`); the tests start it with
 * `child_process.fork` (messages over `process.send`). Both speak shared/host-messages.ts.
 * Configuration comes from the environment, as for `npm run server`.
 */

type ParentLink = {
  send(event: THostEvent): Promise<void>;
  onMessage(listener: (message: unknown) => void): void;
  /** The parent went away without asking us to stop (Node IPC only). */
  onGone(listener: () => void): void;
};

type ElectronParentPort = {
  on(event: 'message', listener: (messageEvent: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
};

// Migrations beside this file (the build copies them beside the bundle), the built web apps and
// the docs' examples in the checkout, or beside the bundle inside dist/.
const { migrationsFolder: MIGRATIONS_FOLDER, staticDirs: STATIC_DIRS } = filesOfEntry(import.meta.url);

function connectToParent(): ParentLink {
  const parentPort = (process as unknown as { parentPort?: ElectronParentPort }).parentPort;
  if (parentPort) {
    return {
      send: async (event) => parentPort.postMessage(event),
      onMessage: (listener) => parentPort.on('message', (messageEvent) => listener(messageEvent.data)),
      // Electron ends a utility process together with its parent.
      onGone: () => {},
    };
  }
  const send = process.send?.bind(process);
  if (send) {
    return {
      send: (event) =>
        new Promise((resolve) => {
          if (!process.connected) return resolve();
          send(event, undefined, {}, () => resolve());
        }),
      onMessage: (listener) => process.on('message', listener),
      onGone: (listener) => process.once('disconnect', listener),
    };
  }
  throw new Error(
    'server/host.ts is started by the desktop shell (or child_process.fork); run `npm run server` for the server alone.',
  );
}

function describeFailure(err: unknown): string {
  if (err instanceof ConfigError) return err.message;
  if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
    return `The port is already in use (${err.message}). Another SignDesk may be running; else set PORT to a free port.`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** The window's one-time sign-in link; none before the first administrator exists (the window shows first-run setup). */
async function adminLoginUrlOf(server: SignDeskServer): Promise<string | null> {
  return (await server.ctx.repos.users.firstMatching(ACTIVE_ADMINISTRATOR)) ? server.createAdminLoginUrl() : null;
}

async function answer(
  server: SignDeskServer,
  request: Exclude<THostRequest, { type: 'shutdown' }>,
): Promise<THostEvent> {
  switch (request.type) {
    case 'status':
      return { type: 'status', id: request.id, ...(await server.status()) };
    case 'admin-login-url':
      return { type: 'admin-login-url', id: request.id, url: await adminLoginUrlOf(server) };
  }
}

function runHost(): void {
  const parent = connectToParent();
  let server: SignDeskServer | undefined;
  let logsDir: string | null = null;
  let stopping: Promise<void> | undefined;

  const start = (async () => {
    const config = loadConfig(process.env);
    logsDir = path.join(config.dataDir, 'logs');
    // Set only by scripts/run-electron.mjs (a development checkout); the packaged shell drops it.
    const sqliteBinding = process.env.SIGNDESK_SQLITE_BINDING || undefined;
    server = await createServer(config, {
      migrationsFolder: MIGRATIONS_FOLDER,
      sqliteBinding,
      staticDirs: STATIC_DIRS,
      lockRole: 'desktop app',
    });
    return { config, server };
  })();

  let isFailing = false;
  const fail = async (err: unknown, context: string) => {
    if (isFailing) return;
    isFailing = true;
    const message = describeFailure(err);
    server?.ctx.logger.fatal({ err }, context);
    server?.ctx.logger.flush();
    process.stderr.write(`SignDesk server: ${context}: ${err instanceof Error ? err.stack : String(err)}\n`);
    await parent.send({ type: 'failed', message, logsDir });
    process.exit(1);
  };

  // Stops taking requests, lets deliveries in flight finish, checkpoints and closes the database.
  const stop = () => {
    stopping ??= (async () => {
      await parent.send({ type: 'stopping' });
      const started = await start.catch(() => undefined);
      if (!started) return process.exit(1);
      try {
        await started.server.close();
      } catch (err) {
        await fail(err, 'shutdown failed');
      }
      process.exit(0);
    })();
  };

  parent.onMessage((message) => void onRequest(message));
  async function onRequest(message: unknown): Promise<void> {
    const request = parseHostRequest(message);
    if (!request) {
      server?.ctx.logger.warn({ message }, 'host: unknown message ignored');
      return;
    }
    if (request.type === 'shutdown') return stop();
    if (!server || stopping) {
      void parent.send({ type: 'request-failed', id: request.id, message: 'the server is not running' });
      return;
    }
    try {
      void parent.send(await answer(server, request));
    } catch (err) {
      server.ctx.logger.error({ err, request }, 'host: request failed');
      void parent.send({
        type: 'request-failed',
        id: request.id,
        message: err instanceof Error ? err.message : String(err),
      });
    }
  }
  parent.onGone(stop);
  // Electron's utilityProcess.kill() sends SIGTERM: a running server stops cleanly; one still
  // starting, or already stopping and stuck, is ended at once (SQLite commits are atomic).
  const onSignal = () => (server && !stopping ? stop() : process.exit(1));
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  process.on('uncaughtException', (err) => void fail(err, 'uncaught exception'));
  process.on('unhandledRejection', (err) => void fail(err, 'unhandled rejection'));

  start.then(
    ({ config, server: started }) =>
      parent.send({ type: 'ready', url: started.url, dataDir: config.dataDir, logsDir: started.ctx.paths.logs }),
    (err: unknown) => fail(err, 'the server could not start'),
  );
}

runHost();
