// `npm start`: the Electron app where its binary and a display exist, otherwise the headless
// server, saying so in one line. SIGINT or SIGTERM sent to this process stop what it started
// (the build of a web app, Electron) and it exits once they have: no orphan lives on. The
// headless server runs in this process (no second Node to start), with its own signal handling.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { stopWhenOrphaned } from './stop-when-orphaned.mjs';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    return require('electron');
  } catch {
    return undefined;
  }
}

/** The child running now (a build, then the server or Electron), and whether a stop was asked for. */
let current;
let stopSignal;

function stopChild(signal) {
  // A second signal while the child shuts down: end it at once.
  const forward = stopSignal ? 'SIGKILL' : signal;
  stopSignal = signal;
  if (current && current.exitCode === null && current.signalCode === null) current.kill(forward);
  else process.exit(130);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stopChild);
// A signal to npm's pid kills only npm's shell: this process then stops as if it got SIGTERM itself.
stopWhenOrphaned(() => process.kill(process.pid, 'SIGTERM'));
// Should this process end some other way, it takes its child along.
process.on('exit', () => {
  if (current && current.exitCode === null && current.signalCode === null) current.kill('SIGTERM');
});

/** Runs a child to its end; resolves with its exit code. */
function runChild(command, args, options = {}) {
  return new Promise((resolve) => {
    // Its own process group: a Ctrl-C in the terminal reaches only this process, which passes it
    // on once (the server would take a second one as "stop at once").
    current = spawn(command, args, { stdio: 'inherit', detached: process.platform !== 'win32', ...options });
    current.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    current.on('error', () => resolve(1));
  });
}

const hasDisplay =
  process.platform === 'win32' ||
  process.platform === 'darwin' ||
  Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const binary = electronBinary();

/** Where the headless server's admin UI will be, from the same PORT and HOST it reads. */
function adminAddress(env) {
  const host = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  if (env.PORT === '0') return 'the address the server prints below, at /admin';
  return `${env.PUBLIC_BASE_URL?.replace(/\/+$/, '') || `http://${host.includes(':') ? `[${host}]` : host}:${env.PORT || 8750}`}/admin`;
}

/** The admin UI and the signing page, built once (the Electron path builds everything). */
async function buildMissingWebApps() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  for (const [app, script] of [
    ['renderer', 'build:renderer'],
    ['signing', 'build:signing'],
  ]) {
    if (fs.existsSync(`dist/${app}/index.html`)) continue;
    const status = await runChild(npm, ['run', script], { shell: process.platform === 'win32' });
    if (stopSignal) return;
    if (status !== 0) console.log(`${script} failed; the server starts without it.`);
  }
}

if (binary && hasDisplay) {
  const code = await runChild(process.execPath, ['scripts/run-electron.mjs']);
  process.exit(stopSignal && code !== 0 && current?.signalCode === stopSignal ? 0 : code);
} else {
  const why = binary ? 'no display found' : "Electron's binary is not installed";
  console.log(`SignDesk runs headless (${why}): open ${adminAddress(process.env)} in a browser.`);
  await buildMissingWebApps();
  if (stopSignal) process.exit(0);
  // The server stops itself on these signals (closing what it holds), so ours step aside.
  for (const signal of ['SIGINT', 'SIGTERM']) process.off(signal, stopChild);
  const { runServer } = await import('./server.mjs');
  await runServer();
}
