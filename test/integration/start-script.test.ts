import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../helpers/server';

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
describe('npm start (scripts/start.mjs)', { timeout: 120_000 }, () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server it started on %s, and exits cleanly', async (signal) => {
    const dataDir = makeTempDir();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', DISPLAY: '', WAYLAND_DISPLAY: '', LOG_LEVEL: 'warn' },
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
