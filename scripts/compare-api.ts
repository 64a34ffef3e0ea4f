import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMillis, prepareDataDir, startChild, stop } from '../bench/lib';
import { makePaddedPdf, uniqueBodies } from '../bench/pdf-bodies';

/**
 * Before and after in one run: the bare Express baseline, the server of another checkout (e.g.
 * `git archive <commit> | tar -x -C /tmp/before`, with node_modules linked) and this tree's,
 * loaded in turns, each turn printing throughput, latency and server CPU per request:
 *
 *   npx tsx scripts/compare-api.ts /tmp/before get|post|upload [turns=3] [seconds=3] [connections]
 *
 * `upload` posts bench/contracts' 2 MiB PDF (10 connections unless given).
 */
const [otherRoot, which = 'get', turnsArg = '3', secondsArg = '3', connectionsArg] = process.argv.slice(2);
if (!otherRoot) throw new Error('usage: compare-api <other checkout> get|post|upload [turns] [seconds] [connections]');
const turns = Number(turnsArg);
const seconds = Number(secondsArg);
const connections = Number(connectionsArg ?? (which === 'upload' ? 10 : 50));

type Target = { name: string; pid: number; options: autocannon.Options; stop: () => Promise<void> };
type Sample = { rps: number; p50: number; p99: number; cpuUs: number; failed: number };

async function startOurs(name: string, root: string, nextPdf: () => Buffer): Promise<Target> {
  const { dataDir, key } = await prepareDataDir('signdesk-compare-');
  const server = await startChild(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'server/main.ts')],
    { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    /running at (\S+) /,
  );
  const url = server.match[1] as string;
  const headers = { authorization: `token ${key}`, 'accept-api-version': '1' };
  return {
    name,
    pid: server.child.pid as number,
    options: optionsFor(`${url}/api`, headers, '/contracts', nextPdf),
    stop: async () => {
      await stop(server.child);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function optionsFor(
  base: string,
  headers: Record<string, string>,
  uploadPath: string,
  nextPdf: () => Buffer,
): autocannon.Options {
  if (which === 'post') {
    const body = JSON.stringify({ name: 'Benchmark template', content: 'Hyresavtal för lokal på Storgatan 1.' });
    return {
      url: `${base}/contract_templates`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body,
    };
  }
  if (which === 'upload') {
    return {
      url: `${base}${uploadPath}`,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/pdf' },
      requests: [{ setupRequest: (request) => ({ ...request, body: nextPdf() }) }],
    };
  }
  return { url: `${base}/users/1`, headers };
}

async function measure(target: Target, duration: number): Promise<Sample> {
  const before = cpuMillis(target.pid);
  const result = await autocannon({ connections, duration, ...target.options });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs: ((cpuMillis(target.pid) - before) * 1000) / Math.max(1, result.requests.total),
    failed: result.errors + result.non2xx,
  };
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${(sorted[Math.floor(sorted.length / 2)] as number).toFixed(3)} [${(sorted[0] as number).toFixed(3)}-${(sorted.at(-1) as number).toFixed(3)}]`;
};

async function main(root: string): Promise<void> {
  const nextPdf = which === 'upload' ? uniqueBodies(await makePaddedPdf(16, 2 * 1024 * 1024)) : () => Buffer.alloc(0);
  const bare = await startChild(process.execPath, ['--import', 'tsx', 'bench/bare-express.ts'], {}, /ready (\S+)/);
  const targets: Target[] = [
    {
      name: 'bare',
      pid: bare.child.pid as number,
      options: optionsFor(`${bare.match[1]}/bare`, {}, '/upload', nextPdf),
      stop: () => stop(bare.child),
    },
    await startOurs('other', path.resolve(root), nextPdf),
    await startOurs('this', process.cwd(), nextPdf),
  ];
  try {
    for (const target of targets) await measure(target, 1);
    const samples = targets.map(() => [] as Sample[]);
    for (let turn = 0; turn < turns; turn += 1) {
      const line: string[] = [];
      for (const [index, target] of targets.entries()) {
        const sample = await measure(target, seconds);
        samples[index]?.push(sample);
        line.push(
          `${target.name} ${sample.rps.toFixed(0)}/s p50 ${sample.p50} p99 ${sample.p99} cpu ${sample.cpuUs.toFixed(0)} µs${sample.failed ? ` FAILED ${sample.failed}` : ''}`,
        );
      }
      console.log(`${which} turn ${turn + 1}: ${line.join(' | ')}`);
    }
    const [bareSamples, ...others] = samples as [Sample[], Sample[], Sample[]];
    for (const [index, list] of others.entries()) {
      const name = targets[index + 1]?.name;
      console.log(
        `${which} ${name}: throughput ratio ${spread(list.map((s, i) => s.rps / (bareSamples[i] as Sample).rps))}, CPU ratio (bare/ours) ${spread(list.map((s, i) => (bareSamples[i] as Sample).cpuUs / s.cpuUs))}`,
      );
    }
  } finally {
    for (const target of targets) await target.stop();
  }
}

main(otherRoot).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
