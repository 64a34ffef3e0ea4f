// Builds the shell and starts Electron on it (used by npm start when Electron can run).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const child = spawn(require('electron'), ['.'], { stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 0));
