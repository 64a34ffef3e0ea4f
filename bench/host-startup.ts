// How long the desktop shell waits for its server: fork to `ready`, the bundled host (what the
// utility process runs) and the TypeScript source under tsx (what the tests run), each beside
// the bare cost of forking Node and getting one IPC message back. Fresh DATA_DIR each time, so
// the figure includes creating and migrating the database. `npx tsx bench/host-startup.ts`
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDesktop, DESKTOP_OUTPUTS } from '../scripts/build';

const root = path.resolve(import.meta.dirname, '..');
const RUNS = 7;

function timeToFirstMessage(
  entry: string,
  execArgv: string[],
  env: Record<string, string>,
  stop: boolean,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = fork(entry, [], {
      execArgv,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    child.once('message', () => {
      const elapsed = performance.now() - started;
      if (stop) child.send({ type: 'shutdown' });
      else child.kill();
      child.once('exit', () => resolve(elapsed));
    });
    child.once('error', reject);
  });
}

async function median(measure: () => Promise<number>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await measure());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-bench-'));
const bare = path.join(tmp, 'bare.cjs');
fs.writeFileSync(bare, "process.send({ type: 'ready' });\n");
await buildDesktop(root);
let runs = 0;
const dataDir = () => path.join(tmp, `data-${runs++}`);

const baseline = await median(() => timeToFirstMessage(bare, [], {}, false));
const bundled = await median(() =>
  timeToFirstMessage(path.join(root, DESKTOP_OUTPUTS.host), [], { DATA_DIR: dataDir(), PORT: '0' }, true),
);
const source = await median(() =>
  timeToFirstMessage(path.join(root, 'server/host.ts'), ['--import', 'tsx'], { DATA_DIR: dataDir(), PORT: '0' }, true),
);
fs.rmSync(tmp, { recursive: true, force: true });

const line = (name: string, value: number) =>
  `${name}: ${value.toFixed(0)} ms (baseline ${baseline.toFixed(0)}, ratio ${(value / baseline).toFixed(2)})`;
console.log(line('host ready, bundled (dist/server/host.cjs)', bundled));
console.log(line('host ready, source under tsx', source));
