import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, prepareDataDir, startChild, stop } from '../bench/lib';
import { makePaddedPdf, uniqueBodies } from '../bench/pdf-bodies';

/**
 * Runs the server under `node --cpu-prof`, loads one of bench/api's requests for a while, and
 * leaves the profile in the folder it prints (read it with scripts/read-cpuprofile.ts):
 *
 *   npx tsx scripts/profile-api.ts get|post|upload [seconds]
 *
 * `upload` sends bench/contracts' 2 MiB, 16-page PDF (different bytes each time), 10 at a time.
 */
async function makeUploadPdf(): Promise<{ next: () => Buffer }> {
  return { next: uniqueBodies(await makePaddedPdf(16, 2 * 1024 * 1024)) };
}

async function main(): Promise<void> {
  const which = process.argv[2] ?? 'get';
  const seconds = Number(process.argv[3] ?? 10);
  // The key is made in the server's own DATA_DIR; the profile goes to a folder of its own.
  const { dataDir, key } = await prepareDataDir('signdesk-profile-');
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-cpuprofile-'));
  const server = await startChild(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--import', 'tsx', 'server/main.ts'],
    { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' },
    /running at (\S+) /,
  );
  const url = server.match[1] as string;
  const headers = { authorization: `token ${key}`, 'accept-api-version': '1' };
  const pdf = which === 'upload' ? await makeUploadPdf() : undefined;
  const options =
    pdf !== undefined
      ? {
          url: `${url}/api/contracts`,
          method: 'POST' as const,
          headers: { ...headers, 'content-type': 'application/pdf' },
          connections: 10,
          requests: [{ setupRequest: (request: object) => ({ ...request, body: pdf.next() }) }],
        }
      : which === 'post'
        ? {
            url: `${url}/api/contract_templates`,
            method: 'POST' as const,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Benchmark template', content: 'Hyresavtal för lokal på Storgatan 1.' }),
          }
        : { url: `${url}/api/users/1`, headers };
  const result = await load({ ...options, duration: seconds });
  await stop(server.child);
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(
    `${which}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, ${result.non2xx} non-2xx\n${profileDir}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
