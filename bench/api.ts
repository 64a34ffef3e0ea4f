import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../server/cli/run-cli';
import { load, report, residentMemoryMiB, startChild, stop } from './lib';

/**
 * bench/api: our authenticated GET /api/users/{id} and POST /api/contract_templates beside a
 * bare Express route answering the same JSON, in the same run; time from process start to the
 * first 200; resident memory after 100,000 requests.
 */
async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-bench-'));
  const quiet = { out: () => undefined, err: (line: string) => process.stderr.write(`${line}\n`) };
  await runCli(['user', 'create', '--username', 'bench', '--password', 'bench bench', '--email', 'bench@office.test', '--admin'], { DATA_DIR: dataDir }, quiet);
  let key = '';
  await runCli(['token', 'create', '--name', 'bench', '--rate-limit', '1000000000'], { DATA_DIR: dataDir }, { ...quiet, out: (line) => (key = line) });

  const bare = await startChild(process.execPath, ['--import', 'tsx', 'bench/bare-express.ts'], {}, /ready (\S+)/);
  const bareUrl = bare.match[1] as string;

  const startedAt = performance.now();
  const ours = await startChild(process.execPath, ['--import', 'tsx', 'server/main.ts'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' }, /running at (\S+) /);
  const url = ours.match[1] as string;
  const headers = { authorization: `token ${key}`, 'accept-api-version': '1' };
  for (;;) {
    const response = await fetch(`${url}/api/users/1`, { headers });
    if (response.status === 200) break;
  }
  const firstOk = performance.now() - startedAt;

  try {
    const body = JSON.stringify({ name: 'Benchmark template', content: 'Hyresavtal för lokal på Storgatan 1.' });
    const postHeaders = { ...headers, 'content-type': 'application/json' };
    // Warm both up (JIT, prepared statements), then measure.
    await load({ url: `${bareUrl}/bare/users/1`, duration: 2 });
    await load({ url: `${url}/api/users/1`, headers, duration: 2 });

    const bareGet = await load({ url: `${bareUrl}/bare/users/1` });
    const ourGet = await load({ url: `${url}/api/users/1`, headers });
    const barePost = await load({ url: `${bareUrl}/bare/contract_templates`, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const ourPost = await load({ url: `${url}/api/contract_templates`, method: 'POST', headers: postHeaders, body });
    for (const [name, result] of Object.entries({ ourGet, ourPost })) {
      if (result.errors > 0 || result.non2xx > 0) throw new Error(`${name}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    }
    const served = ourGet.requests + ourPost.requests;
    if (served < 100_000) await load({ url: `${url}/api/users/1`, headers, amount: 100_000 - served });

    report('api GET /api/users/{id} throughput', ourGet.rps, 'req/s', bareGet.rps);
    report('api GET /api/users/{id} p99', ourGet.p99, 'ms', bareGet.p99);
    report('api POST /api/contract_templates throughput', ourPost.rps, 'req/s', barePost.rps);
    report('api POST /api/contract_templates p99', ourPost.p99, 'ms', barePost.p99);
    report('api process start to first 200', firstOk, 'ms');
    report('api resident memory after 100,000 requests', residentMemoryMiB(ours.child.pid as number), 'MiB', residentMemoryMiB(bare.child.pid as number));
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
