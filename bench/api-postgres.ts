import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
// @ts-expect-error: a plain ES module of the test scripts, without types
import { startTestPostgres } from '../scripts/test-postgres.mjs';

/**
 * bench/api on PostgreSQL: the same figures (authenticated GET and POST, uploads, start, memory)
 * with ours on a fresh database and the bare baseline doing the same reads and writes there
 * through node-postgres. The database is a throwaway cluster this benchmark starts, unless
 * BENCH_PG_URL names a server to make a database on.
 *
 *   npx tsx bench/api-postgres.ts
 */
const here = path.dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const cluster = process.env.BENCH_PG_URL ? undefined : await startTestPostgres();
  const serverUrl: string = process.env.BENCH_PG_URL ?? cluster.url;
  const name = `signdesk_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'api.ts')], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_DATABASE_URL: url.toString() },
    });
    process.exitCode = result.status ?? 1;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    cluster?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
