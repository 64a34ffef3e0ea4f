/**
 * Contract search on PostgreSQL at 1,000,000 contracts (two parties each, the same names as
 * bench/contracts.ts's SQLite office): each search as the API runs it through the repository
 * (Search-Partial, a page of 20, the total), its p50 and p99 beside the search it replaced, which
 * tested every contract (the baseline, measured in the same run with fewer samples: it takes
 * seconds). Then PostgreSQL's plan of a rare search, which names the trigram indexes.
 *
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/pg-search.ts
 *
 * (SIGNDESK_TEST_PG_URL serves as well.) The role must be allowed to create databases. The office
 * is seeded once (minutes) into a database named by its size, reused by later runs.
 */
import { and, or, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { openPostgres } from '../server/db/pg/open-postgres';
import type { PgDatabase } from '../server/db/pg/pg-database';
import { indexedSql } from '../server/db/repos/contract-search-pg';
import { contractOrdering, createContractRepo, foldName, type ContractFilter } from '../server/db/repos/contracts';
import { storeOf } from '../server/db/stores';
import { report } from './lib';
import { contractName, partyOf } from './office/seed-office';

const SIZE = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const BASELINE_SAMPLES = Number(process.env.BENCH_BASELINE_SAMPLES ?? 3);
const SEED_VERSION = 1;
const ONE = Math.floor(SIZE / 3);

const serverUrl = process.env.BENCH_PG_URL ?? process.env.SIGNDESK_TEST_PG_URL;
if (!serverUrl) throw new Error('set BENCH_PG_URL to a PostgreSQL role that may create databases');
const urlOf = (name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const FIRST = ['Anna', 'Bo', 'Cecilia', 'David', 'Eva', 'Fredrik', 'Greta', 'Hugo', 'Ingrid', 'Johan', 'Åsa', 'Örjan'];
const LAST = ['Andersson', 'Berg', 'Ek', 'Lund', 'Nilsson', 'Öberg', 'Ström', 'Wallin', 'Holm', 'Sjöberg', 'Dahl'];
const array = (words: string[]) => `ARRAY[${words.map((word) => `'${word}'`).join(', ')}]`;
/** partyOf(i, role) in SQL. */
const partySql = (role: number) => `
  (${array(FIRST)})[((i + ${role}) % ${FIRST.length}) + 1] || ' ' || (${array(LAST)})[((i * 7 + ${role}) % ${LAST.length}) + 1] || ' ' || i,
  'p${role}-' || i || '@kund' || (i % 977) || '.example',
  '+4670' || lpad(((i * 2 + ${role}) % 10000000)::text, 7, '0')`;

/**
 * The office in plain SQL (bench/office/seed-office.ts's names): contracts, two parties each, and
 * their search text, folded by ICU's lower case, which folds these names as foldName does (checked
 * below); the indexes built once at the end, as a restore would.
 */
async function seed(url: string): Promise<void> {
  // A chunk's statements take minutes on a busy machine.
  const db = await openPostgres(url, { pool: { statementTimeoutMs: 60 * 60_000 } });
  const x = storeOf(db);
  const run = (text: string, params: unknown[] = []) => x.sql(text).run(params);
  await run("SET maintenance_work_mem = '256MB'");
  await run('DROP INDEX contract_search_name_trgm');
  await run('DROP INDEX contract_search_parties_trgm');
  const user = await x
    .sql<{ id: number }>(
      "INSERT INTO users (username, email, permission_template, created_at) VALUES ('bench', 'bench@example.se', 'CUSTOMER_ADMIN_USER', 1) RETURNING id",
    )
    .get();
  const file = await x
    .sql<{ id: number }>(
      "INSERT INTO stored_files (sha256, content_type, size, data, created_at) VALUES ('bench', 'application/pdf', 4, '\\x25504446', 1) RETURNING id",
    )
    .get();
  const CHUNK = 50_000;
  for (let from = 1; from <= SIZE; from += CHUNK) {
    const to = Math.min(SIZE, from + CHUNK - 1);
    await run(
      `INSERT INTO contracts (id, name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at)
       OVERRIDING SYSTEM VALUE
       SELECT i, n, lower(n), CASE WHEN i % 4 = 0 THEN 'signed' WHEN i % 4 = 1 THEN 'sent' ELSE 'draft' END, 'upload', $1, '[]', $2, i, i
       FROM (SELECT i, 'Avtal ' || ((i * 7919) % 1000003) || ' Kund ' || (i % 977) AS n FROM generate_series($3::bigint, $4::bigint) AS i) AS s`,
      [file!.id, user!.id, from, to],
    );
    for (const role of [0, 1])
      await run(
        `INSERT INTO parties (contract_id, name, email, mobile_phone, sign_token_hash, created_by, created_at, updated_at)
         SELECT i, ${partySql(role)}, 'bench-' || i || '-${role}', $1, i, i FROM generate_series($2::bigint, $3::bigint) AS i`,
        [user!.id, from, to],
      );
    await run(
      `INSERT INTO contract_search (id, name, parties)
       SELECT c.id, c.name_folded, string_agg(lower(p.name COLLATE "und-x-icu") || chr(10) || lower(p.email COLLATE "und-x-icu")
         || chr(10) || p.mobile_phone, chr(10) ORDER BY p.id)
       FROM contracts c JOIN parties p ON p.contract_id = c.id WHERE c.id BETWEEN $1 AND $2 GROUP BY c.id`,
      [from, to],
    );
    process.stderr.write(`seeded ${to} of ${SIZE}\n`);
  }
  await run(`SELECT setval(pg_get_serial_sequence('contracts', 'id'), ${SIZE})`);
  await run(`SELECT setval(pg_get_serial_sequence('parties', 'id'), (SELECT max(id) FROM parties))`);
  await run('CREATE INDEX contract_search_name_trgm ON contract_search USING gin (name gin_trgm_ops)');
  await run('CREATE INDEX contract_search_parties_trgm ON contract_search USING gin (parties gin_trgm_ops)');
  await createContractRepo(x).recount();
  await run('VACUUM ANALYZE contract_search');
  await run('ANALYZE');
  await db.close();
}

async function seededOffice(): Promise<PgDatabase> {
  const name = `sd_bench_search_${SIZE}_v${SEED_VERSION}`;
  const exists = await admin(
    async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1,
  );
  if (!exists) {
    const building = `${name}_building`;
    await admin(async (client) => {
      await client.query(`DROP DATABASE IF EXISTS ${building}`);
      await client.query(`CREATE DATABASE ${building}`);
    });
    await seed(urlOf(building));
    await admin((client) => client.query(`ALTER DATABASE ${building} RENAME TO ${name}`));
  }
  return openPostgres(urlOf(name));
}

/** The search it replaced: every contract the other filters leave, its name and each party's text tested. */
function everyContract(db: PgDatabase) {
  const x = storeOf(db);
  const { t } = x;
  const holds = (text: SQL, part: string) => sql`strpos(${text}, ${part}) > 0`;
  const whereOf = (filter: ContractFilter): SQL | undefined => {
    const q = filter.q ? foldName(filter.q) : undefined;
    const name = filter.name ? holds(sql`${t.contracts.nameFolded}`, foldName(filter.name)) : undefined;
    if (q === undefined) return name;
    const party = sql`EXISTS (SELECT 1 FROM parties p WHERE p.contract_id = ${t.contracts.id} AND (strpos(lower(p.name COLLATE "und-x-icu"), ${q}) > 0 OR strpos(lower(p.email COLLATE "und-x-icu"), ${q}) > 0 OR strpos(p.mobile_phone, ${q}) > 0))`;
    return and(name, or(holds(sql`${t.contracts.nameFolded}`, q), party));
  };
  return async (filter: ContractFilter) => {
    await x.all(
      x.orm
        .select({ id: t.contracts.id })
        .from(t.contracts)
        .where(whereOf(filter))
        .orderBy(sql`${t.contracts.id} DESC`)
        .limit(21),
    );
    await x.get(
      x.orm
        .select({ n: sql<number>`count(*)` })
        .from(t.contracts)
        .where(whereOf(filter)),
    );
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function time(samples: number, run: (index: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    const started = performance.now();
    await run(index);
    times.push(performance.now() - started);
  }
  return times;
}

const db = await seededOffice();
const x = storeOf(db);
const contracts = createContractRepo(x);
const ordering = contractOrdering(undefined, {});
/** Alternate letter case: the same search, but not the window kept from the last identical one. */
const cased = (text: string | undefined, index: number) =>
  text === undefined ? undefined : index % 2 === 0 ? text.toUpperCase() : text.toLowerCase();
const searchOnce = async (filter: ContractFilter, index: number) => {
  const given = { ...filter, q: cased(filter.q, index), name: cased(filter.name, index) };
  await contracts.isSearchPartial(given);
  await contracts.listPage({ isBackward: false, limit: 20 }, given, ordering);
  await contracts.total(given);
};
const replaced = everyContract(db);
const label = SIZE >= 1_000_000 ? `${SIZE / 1_000_000}M` : `${SIZE / 1_000}k`;
const searches: { label: string; filter: ContractFilter }[] = [
  { label: 'q=contract name (1 hit)', filter: { q: contractName(ONE) } },
  { label: 'q=party e-mail (1 hit)', filter: { q: partyOf(ONE, 1).email } },
  { label: 'q=part of a party name', filter: { q: 'berg 77' } },
  { label: 'q=part of a phone number', filter: { q: '0701554' } },
  { label: 'q=common (kund 5)', filter: { q: 'kund 5' } },
  { label: 'q=no match', filter: { q: 'wwvv' } },
  { label: 'q=2 characters', filter: { q: 'ek' } },
  { label: 'name=', filter: { name: 'kund 97' } },
  { label: 'q=Örjan Sjöberg', filter: { q: 'Örjan Sjöberg 1' } },
];
const folded = await x
  .sql<{ same: boolean }>(`SELECT bool_and(parties = $1) AS same FROM contract_search WHERE id = $2`)
  .get([
    [0, 1]
      .map((role) => partyOf(ONE, role))
      .map((p) => `${foldName(p.name)}\n${foldName(p.email)}\n${p.phone}`)
      .join('\n'),
    ONE,
  ]);
if (!folded?.same) throw new Error('the seeded search text is not folded as foldName folds');
for (const search of searches) {
  await time(10, (index) => searchOnce(search.filter, index));
  const ours = await time(SAMPLES, (index) => searchOnce(search.filter, index));
  const before = await time(BASELINE_SAMPLES, () => replaced(search.filter));
  report(`pg search ${search.label} p50 at ${label}`, percentile(ours, 50), 'ms', percentile(before, 50));
  report(`pg search ${search.label} p99 at ${label}`, percentile(ours, 99), 'ms', percentile(before, 99));
}
// The statement a rare search's window comes from, driven by one rare trigram per column.
const rare = indexedSql('q', { part: 'q', name: ['554'], parties: ['554'] })
  .replaceAll('@name_q0', "'%554%'")
  .replaceAll('@parties_q0', "'%554%'")
  .replaceAll('@q', "'%0701554%'");
const plan = await x.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${rare}`).all();
process.stdout.write(
  `\nPostgreSQL's plan of a rare search (q=0701554) at ${label}:\n${plan.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}\n`,
);
await db.close();
