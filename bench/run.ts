import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** `npm run bench`: every benchmark in bench/ (a file with a main, not lib or baseline helpers), one after another. */
const here = path.dirname(fileURLToPath(import.meta.url));
const helpers = new Set(['run.ts', 'lib.ts', 'bare-express.ts', 'pdf-bodies.ts']);
const only = process.argv.slice(2);
const benchmarks = fs
  .readdirSync(here)
  .filter((name) => name.endsWith('.ts') && !helpers.has(name) && !name.startsWith('_'))
  .filter((name) => only.length === 0 || only.some((wanted) => name.startsWith(wanted)));
let failed = 0;
for (const name of benchmarks) {
  process.stdout.write(`# bench/${name}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, name)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
