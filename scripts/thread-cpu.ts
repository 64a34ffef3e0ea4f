import fs from 'node:fs';
import { load, prepareDataDir, startChild, stop } from '../bench/lib';
import { makePaddedPdf, uniqueBodies } from '../bench/pdf-bodies';

/**
 * Where an upload's CPU goes, thread by thread (Linux): runs `npm run server`'s entry, uploads
 * bench/contracts' 2 MiB, 16-page PDF (different bytes each time) 10 at a time, and prints each
 * thread's user + system CPU per upload, the request thread first. Unlike a --cpu-prof profile,
 * a thread waiting for a core is not counted.
 *
 *   npx tsx scripts/thread-cpu.ts [seconds]
 */
const TICK_MS = 10; // USER_HZ 100

function threadTimes(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    times.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
  }
  return times;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 8);
  const { dataDir, key } = await prepareDataDir('signdesk-thread-cpu-');
  const server = await startChild(
    process.execPath,
    ['--import', 'tsx', 'server/main.ts'],
    { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    /running at (\S+) /,
  );
  const pid = server.child.pid as number;
  const next = uniqueBodies(await makePaddedPdf(16, 2 * 1024 * 1024));
  const options = {
    url: `${server.match[1]}/api/contracts`,
    method: 'POST' as const,
    headers: { authorization: `token ${key}`, 'accept-api-version': '1', 'content-type': 'application/pdf' },
    connections: 10,
    requests: [{ setupRequest: (request: object) => ({ ...request, body: next() }) }],
  };
  await load({ ...options, duration: 3 }); // warm: the PDF workers start at the first upload
  const before = threadTimes(pid);
  const result = await load({ ...options, duration: seconds });
  const after = threadTimes(pid);
  await stop(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const perUpload = (ms: number) => (ms / Math.max(1, result.requests)).toFixed(2);
  let total = 0;
  const lines: string[] = [];
  for (const [tid, ms] of [...after].sort(([a], [b]) => a - b)) {
    const used = ms - (before.get(tid) ?? 0);
    total += used;
    if (used >= TICK_MS * 2)
      lines.push(`  thread ${tid}${tid === pid ? ' (request thread)' : ''}: ${perUpload(used)} ms`);
  }
  process.stdout.write(
    `${result.requests} uploads, ${Math.round(result.rps)} req/s, ${result.non2xx} non-2xx; CPU per upload:\n${lines.join('\n')}\n  all threads: ${perUpload(total)} ms\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
