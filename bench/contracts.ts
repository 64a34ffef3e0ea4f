/**
 * The contract list, its filters, searches and counts at 1,000 and 1,000,000 contracts (two
 * parties each), every query the API and the admin UI run, each beside its 1k figure; the p99
 * of a plain GET while searches run at 1M; and 2 MiB PDF uploads beside a bare Express route
 * that only reads the same bodies.
 *
 *   npm run bench contracts        (or: npx tsx bench/contracts.ts)
 *
 * Prints `<name>: <value> <unit> (baseline <value>, ratio <r>)`. The 1M office is seeded once
 * (a few minutes) into node_modules/.cache/signdesk-bench and reused by later runs.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { createServer, loadConfig, type SignDeskServer } from '../server/index';
import { prepareDataDir } from './lib';
import { makePaddedPdf, uploadLoad } from './pdf-bodies';
import { contractName, partyOf, seededOffice, type SeededOffice } from './office/seed-office';
import { measureSearchLoad } from './office/search-load';
import { rawSql } from '../server/db/raw-sql';

const MIB2 = 2 * 1024 * 1024;
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const WARMUP = 30;
const LARGE = Number(process.env.BENCH_CONTRACTS ?? 1_000_000);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

type Instance = { server: SignDeskServer; key: string; dir: string; office?: SeededOffice };

async function startInstance(office?: SeededOffice): Promise<Instance> {
  const { dataDir: dir, key } = office ?? (await prepareDataDir());
  const server = await createServer(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }));
  return { server, key, dir, ...(office ? { office } : {}) };
}

/** Stops the server; a temporary office goes with it, the cached 1M office stays for the next run. */
async function stopInstance(instance: Instance, isKept = false): Promise<void> {
  await instance.server.close();
  if (!isKept) fs.rmSync(instance.dir, { recursive: true, force: true });
}

function get(instance: Instance, url: string): Promise<{ status: number; link: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent, headers: { authorization: `token ${instance.key}`, 'accept-api-version': '1' } },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            link: String(response.headers.link ?? ''),
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

/** The URL of page `page` of a list (or of its last page, if shorter), found by following `next` links. */
async function pageUrl(instance: Instance, target: string, page: number): Promise<{ url: string; page: number }> {
  let url = `${instance.server.url}${target}`;
  for (let current = 1; current < page; current += 1) {
    const response = await get(instance, url);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.link)?.[1];
    if (!next) return { url, page: current };
    url = next;
  }
  return { url, page };
}

const percentile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;

/**
 * p50 and p99 of each target, sampled in turns (a, b, a, b, …) so that both see the same
 * machine: this machine is shared, and a burst of load must not land on one side only.
 */
/**
 * The same search in other letter case: the same work for the server, but not the window it
 * keeps from the last identical request, so that every sample measures a search.
 */
function otherCase(url: string, index: number): string {
  if (index % 2 === 0) return url;
  const parsed = new URL(url);
  for (const name of ['q', 'name']) {
    const value = parsed.searchParams.get(name);
    if (value) parsed.searchParams.set(name, value.toUpperCase());
  }
  return parsed.toString();
}

async function latencies(
  targets: ReadonlyArray<{ instance: Instance; url: string }>,
): Promise<Array<{ p50: number; p99: number }>> {
  const times = targets.map(() => [] as number[]);
  for (let index = 0; index < WARMUP + SAMPLES; index += 1) {
    for (const [which, target] of targets.entries()) {
      const response = await get(target.instance, otherCase(target.url, index));
      if (response.status !== 200) throw new Error(`${target.url} answered ${response.status}`);
      if (index >= WARMUP) times[which]?.push(response.ms);
    }
  }
  return times.map((list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  });
}

async function uploadRate(
  url: string,
  headers: Record<string, string>,
  template: Uint8Array,
): Promise<{ rate: number; failed: number }> {
  const load = uploadLoad(url, headers, template);
  const run = (duration: number) => autocannon({ ...load, duration });
  // Warmed first, both sides alike: the PDF workers start (and, in a checkout, compile) at the first upload.
  await run(3);
  const result = await run(8);
  return { rate: result.requests.average, failed: result.non2xx + result.errors };
}

/** The floor: Express reading a 2 MiB body and answering, nothing else. */
async function startBareUpload(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.post('/upload', express.raw({ type: 'application/pdf', limit: MIB2 }), (req, res) => {
    res.status(201).json({ size: (req.body as Buffer).length });
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const line = (name: string, value: number, unit: string, baseline: number) =>
  console.log(
    `${name}: ${value.toFixed(3)} ${unit} (baseline ${baseline.toFixed(3)}, ratio ${(value / baseline).toFixed(2)})`,
  );

/** A user filter value: the seeded clerk, who wrote every other contract. */
const CLERK = '/api/users/2';
const ONE = 777; // a contract that exists at both sizes
const list = (query: string) => `/api/contracts?per_page=20${query}`;

/** Every list, filter, search and count the API and the admin UI (20 a page) run. */
const TARGETS: Array<{ label: string; path: string; page?: number }> = [
  { label: 'list first page', path: list('') },
  { label: 'list page 500', path: list(''), page: 500 },
  { label: 'list page 500 sort=-name', path: list('&sort=-name'), page: 500 },
  { label: 'list page 500 status=signed', path: list('&status=signed'), page: 500 },
  { label: 'list sort=name', path: list('&sort=name') },
  { label: 'list sort=-is_signed,-id', path: list('&sort=-is_signed,-id') },
  { label: 'list user', path: list(`&user=${CLERK}`) },
  { label: 'list user status=draft sort=name', path: list(`&user=${CLERK}&status=draft&sort=name`) },
  { label: 'counts', path: '/api/contract_counts' },
  { label: 'counts user', path: `/api/contract_counts?user=${CLERK}` },
  { label: 'search q=contract name (1 hit)', path: list(`&q=${encodeURIComponent(contractName(ONE))}`) },
  { label: 'search q=party e-mail (1 hit)', path: list(`&q=${encodeURIComponent(partyOf(ONE, 1).email)}`) },
  { label: 'search q=part of a party name', path: list(`&q=${encodeURIComponent('berg 77')}`) },
  { label: 'search q=part of a phone number', path: list('&q=0701554') },
  { label: 'search q=common (kund 5)', path: list('&q=kund%205') },
  { label: 'search q=common page 3', path: list('&q=kund%205'), page: 3 },
  { label: 'search q=no match', path: list('&q=wwvv') },
  { label: 'search q=1 character', path: list('&q=7') },
  { label: 'search q=2 characters', path: list('&q=ek') },
  { label: 'search name=', path: list('&name=kund%2097') },
  { label: 'search q= status=signed sort=name', path: list('&q=kund%205&status=signed&sort=name') },
  { label: 'search q= user sort=-is_signed,-id', path: list(`&q=kund%205&user=${CLERK}&sort=-is_signed,-id`) },
  { label: 'counts q=common', path: '/api/contract_counts?q=kund%205' },
  {
    label: 'counts q=e-mail user',
    path: `/api/contract_counts?q=${encodeURIComponent(partyOf(ONE, 1).email)}&user=${CLERK}`,
  },
];

/** `BENCH_ONLY=<regex>`: only the figures whose label matches ("upload" for the upload's), for a shorter run. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

async function main(): Promise<void> {
  const offices: SeededOffice[] = [];
  for (const size of [1_000, LARGE]) {
    const office = await seededOffice(size);
    const how = office.isCached ? 'reused the seeded office in' : 'seeded';
    console.error(`${how} ${size.toLocaleString('en')} contracts in ${office.seconds.toFixed(1)} s`);
    offices.push(office);
  }
  const [small, large] = [await startInstance(offices[0]), await startInstance(offices[1])];
  const sizeLabel = LARGE >= 1_000_000 ? `${LARGE / 1_000_000}M` : `${LARGE / 1_000}k`;
  for (const target of TARGETS.filter((candidate) => !ONLY || ONLY.test(candidate.label))) {
    const [smallPage, largePage] = [
      await pageUrl(small, target.path, target.page ?? 1),
      await pageUrl(large, target.path, target.page ?? 1),
    ];
    const [smallTimes, largeTimes] = (await latencies([
      { instance: small, url: smallPage.url },
      { instance: large, url: largePage.url },
    ])) as [{ p50: number; p99: number }, { p50: number; p99: number }];
    // 1,000 contracts have no page 500: the baseline is their deepest page.
    const note = smallPage.page === largePage.page ? '' : ` (1k baseline: page ${smallPage.page}, its last)`;
    line(`contracts ${target.label} p50 at ${sizeLabel}${note}`, largeTimes.p50, 'ms', smallTimes.p50);
    line(`contracts ${target.label} p99 at ${sizeLabel}${note}`, largeTimes.p99, 'ms', smallTimes.p99);
  }
  const loadLabels = [
    `GET p99 at ${sizeLabel} while 4 clients search`,
    `search p99 at ${sizeLabel} under 4 concurrent clients`,
  ];
  if (!ONLY || loadLabels.some((label) => ONLY.test(label))) {
    const load = await measureSearchLoad(large.server.url, large.key, agent);
    line(`contracts ${loadLabels[0]}`, load.busyP99, 'ms', load.idleP99);
    line(`contracts ${loadLabels[1]}`, load.searchP99, 'ms', load.searchIdleP99);
  }
  await stopInstance(small);
  await stopInstance(large, true);
  if (ONLY && !ONLY.test('upload')) return agent.destroy();

  const pdf = await makePaddedPdf(16, MIB2);
  if (pdf.length !== MIB2) throw new Error('the upload PDF is not 2 MiB');
  const bare = await startBareUpload();
  const floor = await uploadRate(bare.url, {}, pdf);
  await bare.close();
  const instance = await startInstance();
  const ours = await uploadRate(
    `${instance.server.url}/api/contracts`,
    { authorization: `token ${instance.key}`, 'accept-api-version': '1' },
    pdf,
  );
  const stored = ((await rawSql(instance.server.ctx.db).get('SELECT count(*) AS n FROM contracts')) as { n: number }).n;
  await stopInstance(instance);
  if (ours.failed > 0 || floor.failed > 0) console.error(`failed uploads: ours ${ours.failed}, bare ${floor.failed}`);
  console.error(`stored ${stored} contracts of 2 MiB each`);
  line('contracts upload 2 MiB PDF (16 pages), -c 10 -d 8', ours.rate, 'req/s', floor.rate);
  agent.destroy();
}

await main();
