// The test run behind `npm test` (after the static checks): every test on SQLite, then the
// integration, evidence and end-to-end tests again on PostgreSQL (a throwaway cluster this
// script starts, unless SIGNDESK_TEST_PG_URL names one). `npm run test:sqlite` and
// `npm run test:postgres` run one pass; extra arguments go to vitest (a file, -t "name").
import { spawnSync } from 'node:child_process';
import { startTestPostgres } from './test-postgres.mjs';

const [mode = 'both', ...rest] = process.argv.slice(2);
const PG_SUITES = ['test/integration', 'test/evidence', 'test/e2e'];
/**
 * Test files the PostgreSQL pass leaves to the SQLite pass, each for a reason of its own. Most
 * are about SQLite itself (its file, its folder, its threads) or the desktop app, which always
 * embeds SQLite; two roll signdesk.sqlite back to an older version's schema, a past the
 * PostgreSQL schema never had.
 */
const SQLITE_ONLY = {
  'test/integration/storage.test.ts': 'the layout of DATA_DIR around signdesk.sqlite',
  'test/integration/data-dir-permissions.test.ts': 'the modes of signdesk.sqlite and its -wal and -shm files',
  'test/integration/sqlite-temp-folder.test.ts': "SQLite's temporary store",
  'test/integration/disk-full.test.ts': 'a full disk under DATA_DIR, where SQLite writes (PostgreSQL writes elsewhere)',
  'test/integration/contract-search-threads.test.ts': "SQLite's search threads (PostgreSQL searches in the server)",
  'test/integration/desktop-build.test.ts': 'the desktop app, which embeds SQLite',
  'test/integration/desktop-host.test.ts': 'the desktop app, which embeds SQLite',
  'test/integration/desktop-host-work.test.ts': 'the desktop app, which embeds SQLite',
  'test/integration/secrets-at-rest.test.ts':
    'reads signdesk.sqlite for secrets in clear (key-store.test.ts reads sealed_keys and pg_dump)',
  'test/integration/secrets-upgrade.test.ts': "rolls signdesk.sqlite back to an older version's schema",
  'test/evidence/activity-chain-history.test.ts':
    "rolls signdesk.sqlite back to a schema from before the chain (PostgreSQL's has no such past)",
};

let cluster;
let url = process.env.SIGNDESK_TEST_PG_URL;
if (!url) {
  cluster = await startTestPostgres();
  url = cluster.url;
  console.log(`PostgreSQL for the tests: ${url} (a throwaway cluster in ${cluster.dir})`);
}
const stop = () => cluster?.stop();
process.on('exit', stop);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

const vitest = (backend, args) => {
  console.log(`\n=== tests on ${backend === 'postgres' ? 'PostgreSQL' : 'SQLite'}: vitest run ${args.join(' ')}\n`);
  const result = spawnSync('npx', ['vitest', 'run', ...args], {
    stdio: 'inherit',
    env: { ...process.env, SIGNDESK_TEST_PG_URL: url, SIGNDESK_TEST_BACKEND: backend },
  });
  return result.status ?? 1;
};

let status = 0;
if (mode === 'both' || mode === 'sqlite') status ||= vitest('sqlite', rest);
if (mode === 'both' || mode === 'postgres') {
  const args =
    rest.length > 0 ? rest : [...PG_SUITES, ...Object.keys(SQLITE_ONLY).flatMap((file) => ['--exclude', file])];
  const pgStatus = vitest('postgres', args);
  status ||= pgStatus;
}
process.exit(status);
