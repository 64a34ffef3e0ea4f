// The test run behind `npm test` (after the static checks): every test on SQLite, then the
// integration, evidence and end-to-end tests again on PostgreSQL (a throwaway cluster this
// script starts, unless SIGNDESK_TEST_PG_URL names one). `npm run test:sqlite` and
// `npm run test:postgres` run one pass; extra arguments go to vitest (a file, -t "name").
import { spawnSync } from 'node:child_process';
import { startTestPostgres } from './test-postgres.mjs';

const [mode = 'both', ...rest] = process.argv.slice(2);
const PG_SUITES = ['test/integration', 'test/evidence', 'test/e2e'];

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
  const args = rest.length > 0 ? rest : PG_SUITES;
  const pgStatus = vitest('postgres', args);
  status ||= pgStatus;
}
process.exit(status);
