// Runs before `npm test`: the browser and PDF tests need Debian's chromium, poppler-utils and
// qpdf. Installs what is missing when apt-get can (as root), else says what to install.
import { spawnSync } from 'node:child_process';

const tools = { chromium: 'chromium', pdfsig: 'poppler-utils', pdftotext: 'poppler-utils', qpdf: 'qpdf' };
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const missing = [...new Set(Object.entries(tools).filter(([command]) => !has(command)).map(([, pkg]) => pkg))];
if (missing.length === 0) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (process.platform !== 'linux' || !has('apt-get') || !isRoot) {
  console.error(`The tests need ${missing.join(', ')}. On Debian: sudo apt-get install -y ${missing.join(' ')}`);
  process.exit(1);
}
console.log(`Installing ${missing.join(', ')} for the browser and PDF tests…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
  const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
