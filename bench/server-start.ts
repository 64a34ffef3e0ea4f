// How long an office waits after typing the command: from spawning `npm run server` (and
// `npm start`, headless here: no Electron binary or no display) to the first 200 of an
// authenticated API request, on a built tree and an existing DATA_DIR, beside the floor of
// starting Node itself (a bare `node` HTTP server). Medians of several runs, alternating.
//
//   npx tsx bench/server-start.ts
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildDesktop } from '../scripts/build';
import { prepareDataDir, report } from './lib';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = path.resolve(import.meta.dirname, '..');
const BARE = "require('node:http').createServer((q, s) => s.end('{}')).listen(Number(process.env.PORT), '127.0.0.1')";

type Side = { name: string; command: string; args: string[] };

async function firstOk(
  side: Side,
  env: Record<string, string>,
  port: number,
  headers: Record<string, string>,
): Promise<number> {
  const started = performance.now();
  // Its own process group: npm's shell and the server below it are stopped together.
  const child = spawn(side.command, side.args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${side.name} exited before answering`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/users/1`, { headers });
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const elapsed = performance.now() - started;
  await new Promise<void>((resolve) => {
    if (exited) return resolve();
    child.once('exit', () => resolve());
    process.kill(-(child.pid as number), 'SIGTERM');
  });
  return elapsed;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main(): Promise<void> {
  await buildDesktop(root);
  const { dataDir, key } = await prepareDataDir('signdesk-bench-start-');
  const headers = { authorization: `token ${key}`, 'accept-api-version': '1' };
  // The desktop app is not what is measured: without a display npm start runs headless.
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', DISPLAY: '', WAYLAND_DISPLAY: '' };
  const sides: Side[] = [
    { name: 'bare node', command: process.execPath, args: ['-e', BARE] },
    { name: 'npm run server', command: 'npm', args: ['run', '--silent', 'server'] },
    { name: 'npm start', command: 'npm', args: ['start', '--silent'] },
  ];
  const times = new Map<string, number[]>(sides.map((side) => [side.name, []]));
  let port = 18_700 + Math.floor(Math.random() * 500);
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const side of run % 2 === 0 ? sides : [...sides].reverse())
        times.get(side.name)?.push(await firstOk(side, env, (port += 1), headers));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  process.stderr.write(
    `${[...times].map(([name, list]) => `${name}: ${list.map(Math.round).join(', ')} ms`).join('\n')}\n`,
  );
  const floor = median(times.get('bare node') ?? []);
  report(
    'server start to first 200, npm run server (built tree)',
    median(times.get('npm run server') ?? []),
    'ms',
    floor,
  );
  report(
    'server start to first 200, npm start (headless, built tree)',
    median(times.get('npm start') ?? []),
    'ms',
    floor,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
