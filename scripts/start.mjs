// `npm start`: the Electron app where its binary and a display exist, otherwise the headless
// server, saying so in one line.
import { spawn } from 'node:child_process';
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

if (binary && hasDisplay) {
  run(process.execPath, ['scripts/run-electron.mjs']);
} else {
  console.log(
    `Starting SignDesk headless (${binary ? 'no display found' : "Electron's binary is not installed"}); the admin UI is served at /admin.`,
  );
  run(process.execPath, ['--import', 'tsx', 'server/main.ts']);
}
