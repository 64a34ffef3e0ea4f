// Builds the shell and starts Electron on it (used by npm start when Electron can run).
// A development checkout's better-sqlite3 is built for Node, which the CLI and the tests use;
// the server in Electron's utility process needs one built for Electron's ABI. It is prepared
// once, apart, in node_modules/.cache/signdesk-electron, and handed to the server through
// SIGNDESK_SQLITE_BINDING (the packaged app has its own, rebuilt by electron-builder).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const isWindows = process.platform === 'win32';
const npm = isWindows ? 'npm.cmd' : 'npm';

const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit', shell: isWindows });
if (build.status !== 0) process.exit(build.status ?? 1);

function prepareElectronSqlite() {
  const electronVersion = require('electron/package.json').version;
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const { version } = require('better-sqlite3/package.json');
  const dir = path.resolve(
    'node_modules/.cache/signdesk-electron',
    `better-sqlite3-${version}-electron-${electronVersion}-${process.platform}-${process.arch}`,
  );
  const binding = path.join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(binding)) return binding;

  console.log(`Preparing better-sqlite3 for Electron ${electronVersion} (once)…`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(source, dir, {
    recursive: true,
    filter: (file) => {
      const relative = path.relative(source, file);
      return relative !== 'build' && !relative.startsWith(`build${path.sep}`);
    },
  });
  const bin = (name) => path.resolve('node_modules/.bin', isWindows ? `${name}.cmd` : name);
  const attempts = [
    // A prebuilt binary for Electron's ABI, else a compile against Electron's headers.
    [bin('prebuild-install'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]],
    [
      bin('node-gyp'),
      [
        'rebuild',
        '--release',
        `--target=${electronVersion}`,
        `--arch=${process.arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
    ],
  ];
  for (const [command, args] of attempts) {
    const result = spawnSync(command, args, { cwd: dir, stdio: 'inherit', shell: isWindows, timeout: 600_000 });
    if (result.status === 0 && fs.existsSync(binding)) return binding;
  }
  return undefined;
}

const run = (command, args, env) => {
  const child = spawn(command, args, { stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
};

const binding = prepareElectronSqlite();
if (binding) {
  run(require('electron'), ['.'], { ...process.env, SIGNDESK_SQLITE_BINDING: binding });
} else {
  console.log(
    'better-sqlite3 could not be prepared for Electron here (no prebuilt binary to download, no build against the Electron headers): SignDesk runs headless; the admin UI is at /admin.',
  );
  run(process.execPath, ['--import', 'tsx', 'server/main.ts'], process.env);
}
