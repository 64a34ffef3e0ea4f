import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../helpers/server';
import { testDatabaseEnv } from '../helpers/databases';

const root = path.resolve(import.meta.dirname, '../..');

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** `npm start` as a person runs it headless: stopped by a signal to its own process, it leaves nothing running. */
/** A headless start (no display) on a fresh DATA_DIR of the test backend. */
const headlessEnv = (dataDir: string) => ({
  ...process.env,
  DATA_DIR: dataDir,
  ...testDatabaseEnv(dataDir),
  PORT: '0',
  DISPLAY: '',
  WAYLAND_DISPLAY: '',
  LOG_LEVEL: 'warn',
});

describe('npm start (scripts/start.mjs)', { timeout: 120_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server it started on %s, and exits cleanly', async (signal) => {
    const dataDir = makeTempDir();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: headlessEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The server writes its pid and address beside the DATA_DIR's lock once it listens.
    const mark = path.join(dataDir, 'signdesk.lock.json');
    await vi.waitFor(() => expect(fs.existsSync(mark) && output.includes('SignDesk is running at')).toBe(true), {
      timeout: 90_000,
      interval: 50,
    });
    // The headless server runs in npm start's own process (no second Node to start).
    const serverPid = (JSON.parse(fs.readFileSync(mark, 'utf8')) as { pid: number }).pid;
    expect(serverPid).toBe(child.pid);

    child.kill(signal);
    expect(await exited).toBe(0);
    expect(output).toContain(`${signal}: shutting down`);
    expect(isAlive(serverPid)).toBe(false);
    expect(fs.existsSync(mark)).toBe(false);
  });
});

/** The processes whose parent is `pid` (npm's shell). */
const childrenOf = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    return [];
  }
};

/**
 * The README's promise taken literally: SIGTERM or SIGINT to npm's own pid stops the server and
 * everything npm started. npm passes the signal to its child; the scripts `exec` node, so that
 * child is the server itself, not a shell that would die of it (SIGTERM) or sit on it (SIGINT).
 */
describe('npm run server and npm start, stopped through npm', { timeout: 180_000 }, () => {
  it.each([
    ['server', 'SIGTERM'],
    ['server', 'SIGINT'],
    ['start', 'SIGTERM'],
  ] as const)('npm %s: %s to npm leaves no process and frees the port', async (script, signal) => {
    const dataDir = makeTempDir();
    const npm = spawn('npm', ['run', script], {
      cwd: root,
      env: headlessEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const npmExited = new Promise((resolve) => npm.on('exit', resolve));
    const holder = path.join(dataDir, 'signdesk.lock.json');
    await vi.waitFor(() => expect(/running at (\S+) /.test(output) && fs.existsSync(holder)).toBe(true), {
      timeout: 120_000,
      interval: 50,
    });
    const url = /running at (\S+) /.exec(output)![1]!;
    const serverPid = (JSON.parse(fs.readFileSync(holder, 'utf8')) as { pid: number }).pid;
    const started = [...childrenOf(npm.pid!), serverPid];
    expect((await fetch(`${url}/api/openapi.json`)).status).toBe(200);

    process.kill(npm.pid!, signal);
    await npmExited;
    await vi.waitFor(() => expect(started.filter(isAlive)).toEqual([]), { timeout: 60_000, interval: 100 });
    await expect(fetch(`${url}/api/openapi.json`)).rejects.toThrow();
    // It stopped as on SIGTERM: cleanly, its lock's holder file removed.
    expect(fs.existsSync(holder)).toBe(false);
  });
});
