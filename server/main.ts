import { ConfigError, createServer, loadConfig, type SignDeskServer } from './index';
import { filesOfEntry } from './app/static-dirs';
import { DataDirBusy } from './db/data-dir-lock';
import { MasterKeyError } from './crypto/master-key';

/** Signals this soon after the first are the same stop, passed on by npm (see `stop`). */
const REPEAT_WINDOW_MS = 2_000;

/** `npm run server`: the headless appliance, from the sources or from its bundle (dist/server/main.cjs). */
async function main(): Promise<void> {
  // Taken from the first moment: a signal while the server starts stops it once it has started.
  let stopSignal: string | undefined;
  let stoppingSince = 0;
  const running: { server?: SignDeskServer } = {};
  const stop = (signal: string) => {
    if (stopSignal) {
      // The same signal often comes twice at once: to the process group (a terminal's Ctrl-C,
      // `kill -- -pgid`) and again from npm, which passes on what it got. Only a second signal
      // a moment later means "stop at once".
      if (Date.now() - stoppingSince > REPEAT_WINDOW_MS) process.exit(130);
      return;
    }
    stopSignal = signal;
    stoppingSince = Date.now();
    process.stdout.write(`${signal}: shutting down\n`);
    running.server?.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const config = loadConfig(process.env);
  const server = await createServer(config, filesOfEntry(import.meta.url));
  running.server = server;
  process.stdout.write(
    `SignDesk is running at ${server.url} (admin UI ${server.ctx.baseUrl()}/admin, API docs ${server.ctx.baseUrl()}/apidoc/v1/); data in ${config.dataDir}\n`,
  );
  if (server.publicUrl) {
    process.stdout.write(
      `Parties' signing pages (and nothing else) at ${server.publicUrl}; their links start with ${server.ctx.partyBaseUrl()}\n`,
    );
  }
  if (stopSignal) await server.close().then(() => process.exit(0));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else if (err instanceof DataDirBusy || err instanceof MasterKeyError) {
    process.stderr.write(`SignDesk could not start: ${err.message}\n`);
  } else if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
    process.stderr.write(
      `SignDesk could not start: the port is already in use (${err.message}). Set PORT (or PUBLIC_PORT, whichever it names) to another port.\n`,
    );
  } else {
    process.stderr.write(`SignDesk could not start: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.exit(1);
});
