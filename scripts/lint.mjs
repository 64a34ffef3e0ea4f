// `npm run lint`: eslint over the tree, incremental. ESLint's cache (outside the tree, in
// node_modules/.cache/eslint/) re-lints only files whose content changed. It knows the config
// but not what our own rules read besides the file: their source (eslint-rules/) and the import
// table in docs/decisions.md ("Layout"). So the cache file is named by a hash of those too, and
// changing either lints everything again (as does eslint.config.js or package-lock.json). Extra arguments go to eslint (`npm run lint -- --fix`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cacheDir = path.join(root, 'node_modules', '.cache', 'eslint');

const hash = createHash('sha256');
const rulesDir = path.join(root, 'eslint-rules');
for (const name of fs.readdirSync(rulesDir).sort())
  hash.update(name).update(fs.readFileSync(path.join(rulesDir, name)));
for (const name of ['eslint.config.js', 'package-lock.json'])
  hash.update(name).update(fs.readFileSync(path.join(root, name)));
const decisions = fs.readFileSync(path.join(root, 'docs', 'decisions.md'), 'utf8');
const start = decisions.indexOf('\n## Layout\n');
const end = decisions.indexOf('\n## ', start + 1);
hash.update(decisions.slice(start, end < 0 ? undefined : end));
// One cache per checkout (worktrees may share node_modules), named by its inputs.
const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
const cacheFile = `${checkout}-${hash.digest('hex').slice(0, 16)}.json`;

// This checkout's caches of other inputs would never be read again: keep only this one.
fs.mkdirSync(cacheDir, { recursive: true });
for (const name of fs.readdirSync(cacheDir))
  if (name.startsWith(`${checkout}-`) && name !== cacheFile) fs.rmSync(path.join(cacheDir, name), { force: true });

const eslint = path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
const args = ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(cacheDir, cacheFile)];
const result = spawnSync(process.execPath, [eslint, ...args, ...process.argv.slice(2), '.'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
