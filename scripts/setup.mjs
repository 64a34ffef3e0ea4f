// `npm run setup`: installs the dependencies without Electron's binary (whose download host
// may be out of reach), builds the web pages and the bundles, then tries to fetch the binary; without it
// `npm start` runs headless.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const install = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], {
  stdio: 'inherit',
  env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
});
if (install.status !== 0) process.exit(install.status ?? 1);

// The admin UI and the party signing page are Vite builds the server serves from dist/.
for (const script of ['build:renderer', 'build:signing']) {
  const built = spawnSync(npm, ['run', '--silent', script], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// The bundles (the headless server's among them, which starts in a fraction of the sources' time).
const bundled = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts'], { stdio: 'inherit' });
if (bundled.status !== 0) process.exit(bundled.status ?? 1);

const installer = 'node_modules/electron/install.js';
if (existsSync(installer)) {
  const electron = spawnSync(process.execPath, [installer], { stdio: 'pipe', timeout: 180_000 });
  console.log(
    electron.status === 0
      ? 'Electron is installed: npm start opens the desktop app.'
      : "Electron's binary could not be downloaded here; npm start runs the headless server instead.",
  );
}
