import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPostgresDatabase, TEST_MASTER_KEY } from '../helpers/databases';
import { makeTempDir } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');
const OTHER_MASTER_KEY = Buffer.alloc(32, 8).toString('base64');

type Run = { code: number | null; output: string };

/**
 * `npm run server` on PostgreSQL as an IT partner starts it: DATABASE_URL and the master key
 * (or not) in the environment. Stopped by SIGTERM once it says it runs; a server that does not
 * start exits by itself.
 */
function runServer(env: Record<string, string>): Promise<Run> {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'SIGNDESK_MASTER_KEY', 'SIGNDESK_MASTER_KEY_FILE']) delete inherited[name];
  const child = spawn(process.execPath, ['scripts/server.mjs'], {
    cwd: root,
    env: { ...inherited, DATA_DIR: makeTempDir(), PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('SignDesk is running at')) child.kill('SIGTERM');
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

async function sealedRows(url: string): Promise<Array<{ name: string; sealed: Buffer }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT name, sealed FROM sealed_keys ORDER BY name')).rows;
  } finally {
    await client.end();
  }
}

/**
 * The master key is checked at start (issue 37, "Keys"): a server given none, a malformed one
 * or another office's stops before it listens, says why and what to do, and leaves the
 * database's keys as they were; it never runs on to fail with a 500 later.
 */
describe('a server on PostgreSQL and its master key', { timeout: 180_000 }, () => {
  let url: string;
  let before: Array<{ name: string; sealed: Buffer }>;
  beforeAll(async () => {
    url = await createTestPostgresDatabase();
    // The office's first start seals its keys with the master key.
    const first = await runServer({ DATABASE_URL: url, SIGNDESK_MASTER_KEY: TEST_MASTER_KEY });
    expect(first.output).toContain('SignDesk is running at');
    expect(first.code).toBe(0);
    before = await sealedRows(url);
    expect(before.map((row) => row.name)).toContain('app-secret');
  }, 120_000);

  const refused = async (env: Record<string, string>, message: string) => {
    const run = await runServer({ DATABASE_URL: url, ...env });
    expect(run.code).toBe(1);
    expect(run.output).toContain(`SignDesk could not start: ${message}`);
    expect(run.output).not.toContain('SignDesk is running at');
    // One line that says it all, no stack trace.
    expect(run.output).not.toMatch(/\n\s+at /);
    expect(await sealedRows(url)).toEqual(before);
  };

  it('refuses another master key than the one the office was first started with', async () => {
    await refused(
      { SIGNDESK_MASTER_KEY: OTHER_MASTER_KEY },
      'The master key (SIGNDESK_MASTER_KEY) does not open the keys in this database',
    );
    const file = path.join(makeTempDir(), 'master.key');
    fs.writeFileSync(file, `${OTHER_MASTER_KEY}\n`, { mode: 0o600 });
    await refused(
      { SIGNDESK_MASTER_KEY_FILE: file },
      `The master key (SIGNDESK_MASTER_KEY_FILE (${file})) does not open the keys in this database`,
    );
  });

  it('refuses to start without a master key, or with one that is not 32 bytes, saying how to make one', async () => {
    await refused(
      {},
      "On PostgreSQL SignDesk keeps the office's keys in the database, sealed with a master key, and none was given. Make one with `openssl rand -base64 32`",
    );
    await refused(
      { SIGNDESK_MASTER_KEY: 'hunter2' },
      'SIGNDESK_MASTER_KEY is not a master key: it must be 32 random bytes',
    );
    await refused({ SIGNDESK_MASTER_KEY_FILE: path.join(makeTempDir(), 'missing.key') }, 'The master key file');
  });

  it('starts again with the right master key, from a file as from the environment', async () => {
    const file = path.join(makeTempDir(), 'master.key');
    fs.writeFileSync(file, Buffer.from(TEST_MASTER_KEY, 'base64'), { mode: 0o600 });
    const run = await runServer({ DATABASE_URL: url, SIGNDESK_MASTER_KEY_FILE: file });
    expect(run.output).toContain('SignDesk is running at');
    expect(run.code).toBe(0);
    expect(await sealedRows(url)).toEqual(before);
  });
});
