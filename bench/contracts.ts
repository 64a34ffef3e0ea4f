/**
 * Contract list latency at 1,000 and 1,000,000 contracts (the first and the 500th page of 10),
 * and 2 MiB PDF uploads beside a bare Express route that only reads the same bodies.
 *
 *   npx tsx bench/contracts.ts
 *
 * Prints `<name>: <value> <unit> (baseline <value>, ratio <r>)`; the baseline of each list
 * figure is the same request at 1,000 contracts, measured in the same run.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import { createServer, loadConfig, type SignDeskServer } from '../server/index';
import { prepareDataDir } from './lib';
import { makePaddedPdf, uniqueBodies } from './pdf-bodies';

const MIB2 = 2 * 1024 * 1024;
const SAMPLES = 1_000;
const WARMUP = 50;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

type Instance = { server: SignDeskServer; key: string; dir: string };

async function startInstance(): Promise<Instance> {
  const { dataDir: dir, key } = await prepareDataDir();
  const server = await createServer(loadConfig({ DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'silent' }));
  return { server, key, dir };
}

async function stopInstance(instance: Instance): Promise<void> {
  await instance.server.close();
  fs.rmSync(instance.dir, { recursive: true, force: true });
}

/** Seeds contracts straight into SQLite in one transaction, as an import would, then rebuilds the counts. */
async function seed(instance: Instance, count: number): Promise<void> {
  const { ctx } = instance.server;
  const pdf = await makePaddedPdf(1, 0);
  const sqlite = ctx.db.$client;
  const insert = sqlite.prepare(
    `INSERT INTO contracts (name, name_folded, status, source, original_file_id, page_sizes, created_by, created_at, updated_at)
     VALUES (?, ?, ?, 'upload', ?, '[[595.28,841.89]]', 1, ?, ?)`,
  );
  const statuses = ['draft', 'sent', 'signed', 'rejected', 'sent', 'signed'];
  const now = Date.now();
  sqlite.transaction(() => {
    const fileId = ctx.repos.files.putFile(pdf, 'application/pdf', now);
    for (let index = 0; index < count; index += 1) {
      const name = `Avtal ${(index * 7919) % 1_000_003} Kund ${index % 977}`;
      insert.run(name, name.toLowerCase(), statuses[index % statuses.length], fileId, now, now);
    }
  })();
  ctx.repos.contracts.recount();
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
async function pageUrl(instance: Instance, query: string, page: number): Promise<{ url: string; page: number }> {
  let url = `${instance.server.url}/api/contracts?per_page=10${query}`;
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
async function latencies(
  targets: ReadonlyArray<{ instance: Instance; url: string }>,
): Promise<Array<{ p50: number; p99: number }>> {
  const times = targets.map(() => [] as number[]);
  for (let index = 0; index < WARMUP + SAMPLES; index += 1) {
    for (const [which, target] of targets.entries()) {
      const response = await get(target.instance, target.url);
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
  const next = uniqueBodies(template);
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/pdf' },
    connections: 10,
    duration: 8,
    requests: [{ setupRequest: (request) => ({ ...request, body: next() }) }],
  });
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

async function main(): Promise<void> {
  const lists = [
    { label: 'first page', query: '', page: 1 },
    { label: 'page 500', query: '', page: 500 },
    { label: 'page 500 sort=-name', query: '&sort=-name', page: 500 },
    { label: 'page 500 status=signed', query: '&status=signed', page: 500 },
  ];
  const instances: Instance[] = [];
  for (const size of [1_000, 1_000_000]) {
    const instance = await startInstance();
    const started = performance.now();
    await seed(instance, size);
    console.error(
      `seeded ${size.toLocaleString('en')} contracts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    instances.push(instance);
  }
  const [small, large] = instances as [Instance, Instance];
  for (const list of lists) {
    const [smallPage, largePage] = [
      await pageUrl(small, list.query, list.page),
      await pageUrl(large, list.query, list.page),
    ];
    const [smallTimes, largeTimes] = (await latencies([
      { instance: small, url: smallPage.url },
      { instance: large, url: largePage.url },
    ])) as [{ p50: number; p99: number }, { p50: number; p99: number }];
    // 1,000 contracts have no page 500: the baseline is their deepest page.
    const note = smallPage.page === largePage.page ? '' : ` (1k baseline: page ${smallPage.page}, its last)`;
    line(`contracts list ${list.label} p50 at 1M${note}`, largeTimes.p50, 'ms', smallTimes.p50);
    line(`contracts list ${list.label} p99 at 1M${note}`, largeTimes.p99, 'ms', smallTimes.p99);
  }
  for (const instance of instances) await stopInstance(instance);

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
  const stored = (instance.server.ctx.db.$client.prepare('SELECT count(*) AS n FROM contracts').get() as { n: number })
    .n;
  await stopInstance(instance);
  if (ours.failed > 0 || floor.failed > 0) console.error(`failed uploads: ours ${ours.failed}, bare ${floor.failed}`);
  console.error(`stored ${stored} contracts of 2 MiB each`);
  line('contracts upload 2 MiB PDF (16 pages), -c 10 -d 8', ours.rate, 'req/s', floor.rate);
  agent.destroy();
}

await main();
