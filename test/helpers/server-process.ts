import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { testDatabaseEnv } from './databases';
import { ROOT } from './electron-builder';

export type ServerProcess = {
  /** The office listener, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The party listener (PUBLIC_PORT), if any. */
  publicUrl: string | undefined;
  pid: number;
  /** File handles the process holds now (Linux: /proc/<pid>/fd). */
  openFiles(): number;
  output(): string;
  stop(): Promise<void>;
};

/**
 * `npm run server` from the sources (node with tsx, server/main.ts) in a process of its own,
 * over `dataDir` (the database of the test backend), optionally with at most `maxOpenFiles`
 * file handles (prlimit), as a service manager may start it. Resolves once it listens.
 */
export async function startServerProcess(options: {
  dataDir: string;
  env?: Record<string, string>;
  maxOpenFiles?: number;
}): Promise<ServerProcess> {
  const node = [process.execPath, '--import', 'tsx', path.join(ROOT, 'server/main.ts')];
  const [command, ...args] =
    options.maxOpenFiles === undefined
      ? node
      : ['prlimit', `--nofile=${options.maxOpenFiles}:${options.maxOpenFiles}`, '--', ...node];
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: options.dataDir,
      ...testDatabaseEnv(options.dataDir),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const hasParty = options.env?.PUBLIC_PORT !== undefined;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start within 120 s:\n${output}`)), 120_000);
    const read = () => {
      const match = /running at (\S+) /.exec(output);
      if (match?.[1] && (!hasParty || output.includes('(and nothing else) at'))) {
        clearTimeout(timer);
        child.stdout.off('data', read);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  const publicUrl = /signing pages \(and nothing else\) at (\S+);/.exec(output)?.[1];
  const pid = child.pid as number;
  return {
    url,
    publicUrl,
    pid,
    openFiles: () => fs.readdirSync(`/proc/${pid}/fd`).length,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
