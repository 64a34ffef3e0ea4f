// `npm start`: the Electron app where its binary and a display exist, otherwise the headless
// server, saying so in one line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    return require('electron');
  } catch {
    return undefined;
  }
}

const hasDisplay =
  process.platform === 'win32' || process.platform === 'darwin' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const binary = electronBinary();
const run = (command, args) => {
  const child = spawn(command, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
};

/** Where the headless server's admin UI will be, from the same PORT and HOST it reads. */
function adminAddress(env) {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  if (env.PORT === '0') return 'the address the server prints below, at /admin';
  return `${env.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 8750}`}/admin`;
}

/** The admin UI and the signing page, built once (the Electron path builds everything). */
function buildMissingWebApps() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  for (const [app, script] of [['renderer', 'build:renderer'], ['signing', 'build:signing']]) {
    if (fs.existsSync(`dist/${app}/index.html`)) continue;
    const built = spawnSync(npm, ['run', script], { stdio: 'inherit', shell: process.platform === 'win32' });
    if (built.status !== 0) console.log(`${script} failed; the server starts without it.`);
  }
}

if (binary && hasDisplay) {
  run(process.execPath, ['scripts/run-electron.mjs']);
} else {
  const why = binary ? 'no display found' : "Electron's binary is not installed";
  console.log(`SignDesk runs headless (${why}): open ${adminAddress(process.env)} in a browser.`);
  buildMissingWebApps();
  // In this process: no second Node to start, and the server's own signal handling applies.
  const { runServer } = await import('./server.mjs');
  await runServer();
}
