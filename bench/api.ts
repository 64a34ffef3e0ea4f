import fs from 'node:fs';
import type autocannon from 'autocannon';
import { buildDesktop } from '../scripts/build';
import { cpuMillis, load, prepareDataDir, report, residentMemoryMiB, startChild, stop, type LoadResult } from './lib';
import { makePaddedPdf, uploadLoad } from './pdf-bodies';

/**
 * bench/api: our authenticated GET /api/users/{id} and POST /api/contract_templates beside a
 * bare Express route answering the same JSON, in the same run; 2 MiB PDF uploads beside a bare
 * Express route that only reads them, each server in a process of its own (bench/contracts.ts
 * has the same uploads with both servers in the benchmark's process); time from process start
 * to the first 200; resident memory after 100,000 and after 200,000 requests (it must not grow).
 *
 *   npx tsx bench/api.ts            (BENCH_TURNS=3 by default)
 *   BENCH_ONLY=upload npx tsx bench/api.ts   (only the figures whose name matches, for a shorter run)
 *
 * With BENCH_DATABASE_URL (bench/api-postgres.ts sets it) ours runs on that PostgreSQL database,
 * and the bare baseline does the same reads and writes there through node-postgres.
 *
 * Ours runs as `npm run server` runs it on a built tree: `npm run build` first, then the
 * bundle dist/server/main.cjs through scripts/server.mjs.
 *
 * This machine is shared: each side is measured in turns (bare, ours, ours, bare, bare, ours…,
 * 5 s each, -c 50) so that a burst of other work does not land on one side only. Throughput is
 * all requests over all turns; p99 is the median of the turns' p99; CPU per request is the
 * server process's user + system time over its requests (the steadiest figure here). The
 * ratio of every turn goes to stderr, so the spread can be read.
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 3);
// `warn` keeps the figures comparable with earlier runs; BENCH_LOG_LEVEL=info runs ours as shipped (an access line per request).
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
const databaseEnv: Record<string, string> = DATABASE_URL
  ? // 32 bytes as base64, as every instance is given one: a benchmark's, not a secret.
    { DATABASE_URL, SIGNDESK_MASTER_KEY: Buffer.alloc(32, 9).toString('base64') }
  : {};
const PREFIX = DATABASE_URL ? 'api (PostgreSQL)' : 'api';
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const isWanted = (name: string) => !ONLY || ONLY.test(name);
const GET = `${PREFIX} GET /api/users/{id}`;
const POST = `${PREFIX} POST /api/contract_templates`;
const MEMORY = `${PREFIX} resident memory`;
const START = `${PREFIX} process start to first 200`;
const UPLOAD = `${PREFIX} upload 2 MiB PDF (16 pages), -c 10, each server in its own process`;
const TURN_SECONDS = 5;

type Side = { pid: number; options: autocannon.Options };
type Sample = LoadResult & { seconds: number; cpuMs: number };

async function sample(side: Side): Promise<Sample> {
  const cpuBefore = cpuMillis(side.pid);
  const result = await load({ ...side.options, duration: TURN_SECONDS });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${String(side.options.url)}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return { ...result, seconds: TURN_SECONDS, cpuMs: cpuMillis(side.pid) - cpuBefore };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Both sides in turns; the order flips every turn. */
async function compare(name: string, ours: Side, bare: Side): Promise<{ ours: Sample[]; bare: Sample[] }> {
  const samples = { ours: [] as Sample[], bare: [] as Sample[] };
  for (let turn = 0; turn < TURNS; turn += 1) {
    const order = turn % 2 === 0 ? (['bare', 'ours'] as const) : (['ours', 'bare'] as const);
    for (const which of order) samples[which].push(await sample(which === 'ours' ? ours : bare));
    const [o, b] = [samples.ours.at(-1) as Sample, samples.bare.at(-1) as Sample];
    process.stderr.write(
      `${name} turn ${turn + 1}: ours ${Math.round(o.rps)} req/s, bare ${Math.round(b.rps)} req/s, ratio ${(o.rps / b.rps).toFixed(2)}\n`,
    );
  }
  return samples;
}

function reportComparison(name: string, samples: { ours: Sample[]; bare: Sample[] }): void {
  const throughput = (list: Sample[]) =>
    list.reduce((n, s) => n + s.requests, 0) / list.reduce((n, s) => n + s.seconds, 0);
  const cpuPerRequest = (list: Sample[]) =>
    (list.reduce((n, s) => n + s.cpuMs, 0) * 1000) / list.reduce((n, s) => n + s.requests, 0);
  report(`${name} throughput`, throughput(samples.ours), 'req/s', throughput(samples.bare));
  report(`${name} p99`, median(samples.ours.map((s) => s.p99)), 'ms', median(samples.bare.map((s) => s.p99)));
  report(`${name} server CPU per request`, cpuPerRequest(samples.ours), 'µs', cpuPerRequest(samples.bare));
}

async function main(): Promise<void> {
  const { dataDir, key } = await prepareDataDir('signdesk-bench-', databaseEnv);

  process.stderr.write('building dist/ (npm run build) so that ours runs as npm run server runs it…\n');
  await buildDesktop();
  const bare = await startChild(
    process.execPath,
    ['--import', 'tsx', 'bench/bare-express.ts'],
    DATABASE_URL ? { BARE_DATABASE_URL: DATABASE_URL } : {},
    /ready (\S+)/,
  );
  const bareUrl = bare.match[1] as string;

  const startedAt = performance.now();
  const ours = await startChild(
    process.execPath,
    ['scripts/server.mjs'],
    { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: LOG_LEVEL, ...databaseEnv },
    /(?:running at (\S+) |Running the server from its TypeScript sources)/,
  );
  if (!ours.match[1]) throw new Error('scripts/server.mjs ran the sources: the bundle is not up to date');
  const url = ours.match[1] as string;
  const headers = { authorization: `token ${key}`, 'accept-api-version': '1' };
  for (;;) {
    const response = await fetch(`${url}/api/users/1`, { headers });
    if (response.status === 200) break;
  }
  const firstOk = performance.now() - startedAt;

  try {
    const oursPid = ours.child.pid as number;
    const barePid = bare.child.pid as number;
    const body = JSON.stringify({ name: 'Benchmark template', content: 'Hyresavtal för lokal på Storgatan 1.' });
    const postHeaders = { ...headers, 'content-type': 'application/json' };
    // Warm both up (JIT, prepared statements), then measure.
    await load({ url: `${bareUrl}/bare/users/1`, duration: 2 });
    await load({ url: `${url}/api/users/1`, headers, duration: 2 });

    const get = isWanted(GET)
      ? await compare(
          GET,
          { pid: oursPid, options: { url: `${url}/api/users/1`, headers } },
          { pid: barePid, options: { url: `${bareUrl}/bare/users/1` } },
        )
      : undefined;
    const post = isWanted(POST)
      ? await compare(
          POST,
          {
            pid: oursPid,
            options: { url: `${url}/api/contract_templates`, method: 'POST', headers: postHeaders, body },
          },
          {
            pid: barePid,
            options: {
              url: `${bareUrl}/bare/contract_templates`,
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body,
            },
          },
        )
      : undefined;
    let memory: { after100k: number; bareAfter100k: number; after200k: number } | undefined;
    if (isWanted(MEMORY)) {
      // Both sides up to 100,000 requests, then ours to 200,000: memory must have stopped growing.
      const served = (list: Sample[]) => list.reduce((n, s) => n + s.requests, 0);
      const oursServed = served([...(get?.ours ?? []), ...(post?.ours ?? [])]);
      const bareServed = served([...(get?.bare ?? []), ...(post?.bare ?? [])]);
      if (oursServed < 100_000) await load({ url: `${url}/api/users/1`, headers, amount: 100_000 - oursServed });
      if (bareServed < 100_000) await load({ url: `${bareUrl}/bare/users/1`, amount: 100_000 - bareServed });
      const [after100k, bareAfter100k] = [residentMemoryMiB(oursPid), residentMemoryMiB(barePid)];
      await load({ url: `${url}/api/users/1`, headers, amount: 50_000 });
      await load({ url: `${url}/api/contract_templates`, method: 'POST', headers: postHeaders, body, amount: 50_000 });
      memory = { after100k, bareAfter100k, after200k: residentMemoryMiB(oursPid) };
    }
    // Uploads last: the memory figures are of the JSON requests alone.
    let upload: { ours: Sample[]; bare: Sample[] } | undefined;
    if (isWanted(UPLOAD)) {
      const pdf = await makePaddedPdf(16, 2 * 1024 * 1024);
      const oursUploads = uploadLoad(`${url}/api/contracts`, headers, pdf);
      const bareUploads = uploadLoad(`${bareUrl}/bare/upload`, {}, pdf);
      await load({ ...oursUploads, duration: 2 });
      await load({ ...bareUploads, duration: 2 });
      upload = await compare(UPLOAD, { pid: oursPid, options: oursUploads }, { pid: barePid, options: bareUploads });
    }

    if (get) reportComparison(GET, get);
    if (post) reportComparison(POST, post);
    if (upload) reportComparison(UPLOAD, upload);
    if (isWanted(START)) report(START, firstOk, 'ms');
    if (memory) {
      report(`${MEMORY} after 100,000 requests`, memory.after100k, 'MiB', memory.bareAfter100k);
      report(`${MEMORY} after 200,000 requests`, memory.after200k, 'MiB', memory.after100k);
    }
  } finally {
    await stop(ours.child);
    await stop(bare.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
