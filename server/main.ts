import { ConfigError, createServer, loadConfig } from './index';
import { filesOfEntry } from './app/static-dirs';
import { DataDirBusy } from './db/data-dir-lock';

/** `npm run server`: the headless appliance, from the sources or from its bundle (dist/server/main.cjs). */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const server = await createServer(config, filesOfEntry(import.meta.url));
  process.stdout.write(
    `SignDesk is running at ${server.url} (admin UI ${server.ctx.baseUrl()}/admin, API docs ${server.ctx.baseUrl()}/apidoc/v1/); data in ${config.dataDir}\n`,
  );
  const stop = (signal: string) => {
    process.stdout.write(`${signal}: shutting down\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
  } else if (err instanceof DataDirBusy) {
    process.stderr.write(`SignDesk could not start: ${err.message}\n`);
  } else if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
    process.stderr.write(
      `SignDesk could not start: the port is already in use (${err.message}). Set PORT to another port.\n`,
    );
  } else {
    process.stderr.write(`SignDesk could not start: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
  process.exit(1);
});
