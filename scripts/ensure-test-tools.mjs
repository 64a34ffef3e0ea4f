// Runs before `npm test`: the browser and PDF tests need Debian's chromium, poppler-utils and
// qpdf; the API docs' walk-through runs curl and jq as printed, and the Python webhook receiver
// of docs/examples runs under python3 with `cryptography`; the reach tests put caddy in front and
// make certificates with openssl, and obtain the ACME certificate from a real `pebble` (Let's
// Encrypt's test CA). Installs what is missing when apt-get
// can (as root), else says what to install.
import { spawnSync } from 'node:child_process';
import { findPostgresBin } from './test-postgres.mjs';

const tools = {
  chromium: 'chromium',
  pdfsig: 'poppler-utils',
  pdftotext: 'poppler-utils',
  qpdf: 'qpdf',
  curl: 'curl',
  jq: 'jq',
  python3: 'python3',
  caddy: 'caddy',
  pebble: 'pebble',
  openssl: 'openssl',
};
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const missing = [
  ...new Set(
    Object.entries(tools)
      .filter(([command]) => !has(command))
      .map(([, pkg]) => pkg),
  ),
];
const hasCryptography = spawnSync('python3', ['-c', 'import cryptography'], { stdio: 'ignore' }).status === 0;
// Debian's package serves Debian's python3; another python3 first in PATH needs `pip install cryptography`.
if (!hasCryptography) missing.push('python3-cryptography');
// The tests run on PostgreSQL too (a throwaway cluster: scripts/test-postgres.mjs); pg_trgm is in its contrib.
if (!findPostgresBin()) missing.push('postgresql', 'postgresql-contrib');
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
