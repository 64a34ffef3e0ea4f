import fs from 'node:fs';
import { testDatabaseEnv } from '../helpers/databases';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../server/cli/run-cli';
import { createServer } from '../../server/index';
import { forkHost } from '../helpers/host-process';
import { apiClient, makeAdminAndKey, makeTempDir, testConfig } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');

/** The CLI exactly as `npm run cli` runs it in this process (not the test helper, which runs inside a test server). */
async function runCommand(dataDir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { DATA_DIR: dataDir, ...testDatabaseEnv(dataDir) },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out, err };
}

const holderMessage = (pid: number, url: string) =>
  `Another SignDesk (server, process ${pid} at ${url}) is already using the data folder`;

/** `npm run server` as a process of its own; resolves with its exit code and everything it printed. */
function runServerProcess(dataDir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['scripts/server.mjs'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

describe('one SignDesk per data folder', { timeout: 120_000 }, () => {
  it('refuses a second server and the desktop host while a server runs, naming it; the CLI makes tokens and users beside it', async () => {
    const dataDir = makeTempDir();
    const key = await makeAdminAndKey(dataDir, 'lock');
    const server = await createServer(testConfig(dataDir));
    const expected = holderMessage(process.pid, server.url);
    try {
      const second = await runServerProcess(dataDir);
      expect(second.code).toBe(1);
      expect(second.output).toContain(`SignDesk could not start: ${expected} ${dataDir}`);
      expect(second.output).not.toMatch(/\n\s+at /);

      // In this very process too (a second createServer is refused, not a second connection let in).
      await expect(createServer(testConfig(dataDir))).rejects.toThrow(expected);

      const desktop = forkHost({ env: { DATA_DIR: dataDir, PORT: '0' } });
      await expect(desktop.client.ready).rejects.toThrow(expected);
      expect(await new Promise((resolve) => desktop.child.once('exit', resolve))).toBe(1);

      // The founders' operational contract: token and user create work whether or not the server runs.
      const token = await runCommand(dataDir, ['token', 'create', '--name', 'while-running']);
      expect(token.err).toEqual([]);
      expect(token.code).toBe(0);
      const user = await runCommand(dataDir, [
        'user',
        'create',
        '--username',
        'late',
        '--password',
        'a long secret',
        '--email',
        'late@office.test',
      ]);
      expect(user.code).toBe(0);

      // The running server sees both at once: the new key works, the new user is listed.
      const api = apiClient(server.url, key);
      expect((await api('GET', '/api/users')).body.map((u: { username: string }) => u.username).sort()).toEqual([
        'admin',
        'late',
      ]);
      const newKey = token.out.at(-1) as string;
      expect((await apiClient(server.url, newKey)('GET', '/api/users')).status).toBe(200);
    } finally {
      await server.close();
    }
    const after = await runCommand(dataDir, ['token', 'create', '--name', 'after']);
    expect(after.err).toEqual([]);
    expect(after.code).toBe(0);
  });

  it('a server ended with kill -9 leaves nothing that holds the next one back', async () => {
    const dataDir = makeTempDir();
    const killed = forkHost({ env: { DATA_DIR: dataDir, PORT: '0' } });
    const { url } = await killed.client.ready;
    // The holder's pid and address are written beside the lock while it runs.
    const holder = JSON.parse(fs.readFileSync(path.join(dataDir, 'signdesk.lock.json'), 'utf8'));
    expect(holder).toMatchObject({ pid: killed.child.pid, role: 'desktop app', url });
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));

    const next = await createServer(testConfig(dataDir));
    try {
      expect((await fetch(`${next.url}/api/openapi.json`)).status).toBe(200);
    } finally {
      await next.close();
    }
  });
});
