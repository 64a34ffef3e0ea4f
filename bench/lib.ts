import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { runCli } from '../server/cli/run-cli';

export type LoadResult = { rps: number; p99: number; p50: number; requests: number; errors: number; non2xx: number };

/** One autocannon run (50 connections, 10 s by default, as the baselines were measured). */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const defaults = options.amount === undefined ? { duration: 10 } : {};
  const result = await autocannon({ connections: 50, ...defaults, ...options });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    requests: result.requests.total,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

const round = (value: number) => (value >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

/** `<name>: <value> <unit> (baseline <value>, ratio <r>)`, the one line per figure of the brief. */
export function report(name: string, value: number, unit: string, baseline?: number): void {
  const ratio = baseline ? ` (baseline ${round(baseline)}, ratio ${(value / baseline).toFixed(2)})` : '';
  process.stdout.write(`${name}: ${round(value)} ${unit}${ratio}\n`);
}

/** Starts a child process and resolves with it once it printed `ready <url>` (or its first line matching). */
export function startChild(
  command: string,
  args: string[],
  env: Record<string, string>,
  readyPattern: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(readyPattern);
      if (match) {
        child.stdout?.off('data', onData);
        resolve({ child, match });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${output}`)));
  });
}

export function residentMemoryMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/** User + system CPU time a process has used so far, in milliseconds (Linux: /proc/<pid>/stat). */
export function cpuMillis(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticksPerSecond = 100; // USER_HZ on Linux
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * A fresh DATA_DIR with an administrator and an API key made through the CLI, as an installer
 * would; the key's rate limit is out of the way of a load generator.
 */
export async function prepareDataDir(
  prefix = 'signdesk-bench-',
  databaseEnv: Record<string, string> = {},
): Promise<{ dataDir: string; key: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const quiet = { out: () => undefined, err: (line: string) => process.stderr.write(`${line}\n`) };
  await runCli(
    ['user', 'create', '--username', 'bench', '--password', 'bench bench', '--email', 'bench@office.test', '--admin'],
    { DATA_DIR: dataDir, ...databaseEnv },
    quiet,
  );
  let key = '';
  await runCli(
    ['token', 'create', '--name', 'bench', '--rate-limit', '1000000000'],
    { DATA_DIR: dataDir, ...databaseEnv },
    { ...quiet, out: (line) => (key = line) },
  );
  return { dataDir, key };
}
