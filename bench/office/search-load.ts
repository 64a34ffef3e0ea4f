import http from 'node:http';
import { Worker } from 'node:worker_threads';

const SEARCHES = ['kund 5', 'wwvv', 'p1-777@kund777.example', 'berg 77', '0701554', 'avtal 61', 'ek', '7'];
const ROUNDS = 4;
const PROBES_PER_ROUND = 150;

function timedGet(url: string, key: string, agent: http.Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `token ${key}`, 'accept-api-version': '1' } }, (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url} answered ${response.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

const p99 = (times: readonly number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] as number;
};

/**
 * The searching clients' loop, run on a thread of its own: the server under test shares this
 * process's event loop, and a client's own work (four loops sending, parsing and timing) must
 * not count as the server's. Each client searches back to back on its own connection, as the
 * admin UI's users would, until told to stop; then the times go back to the bench.
 */
const SEARCHERS_SOURCE = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, key, count, searches } = workerData;
let isRunning = true;
const times = [];
const get = (url, agent) => new Promise((resolve, reject) => {
  const started = performance.now();
  http.get(url, { agent, headers: { authorization: 'token ' + key, 'accept-api-version': '1' } }, (response) => {
    response.resume();
    response.on('end', () => response.statusCode === 200 ? resolve(performance.now() - started)
      : reject(new Error(url + ' answered ' + response.statusCode)));
  }).on('error', reject);
});
const loops = Array.from({ length: count }, async (_, which) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let turn = which; isRunning; turn += 1) {
    const q = encodeURIComponent(searches[turn % searches.length]);
    times.push(await get(baseUrl + '/api/contracts?per_page=20&q=' + q, agent));
  }
  agent.destroy();
});
parentPort.postMessage('started');
parentPort.once('message', async () => {
  isRunning = false;
  await Promise.all(loops);
  parentPort.postMessage(times);
});
`;

/** Clients that search back to back (on their own thread) until stopped; their times go into `times`. */
async function startSearchers(baseUrl: string, key: string, count: number, times: number[]) {
  const worker = new Worker(SEARCHERS_SOURCE, { eval: true, workerData: { baseUrl, key, count, searches: SEARCHES } });
  await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
  return async () => {
    const done = new Promise<number[]>((resolve, reject) => worker.once('message', resolve).once('error', reject));
    worker.postMessage('stop');
    times.push(...(await done));
    await worker.terminate();
  };
}

/**
 * The p99 of a plain GET (one contract) while four clients search, beside the same GET with
 * nobody searching, in alternating rounds; and the searches' own p99 with four at once, beside
 * one client searching alone.
 */
export async function measureSearchLoad(
  baseUrl: string,
  key: string,
  agent: http.Agent,
): Promise<{ busyP99: number; idleP99: number; searchP99: number; searchIdleP99: number }> {
  const probe = `${baseUrl}/api/contracts/777`;
  const idle: number[] = [];
  const busy: number[] = [];
  const alone: number[] = [];
  const together: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let index = 0; index < PROBES_PER_ROUND; index += 1) idle.push(await timedGet(probe, key, agent));
    for (let index = 0; index < PROBES_PER_ROUND; index += 1) {
      const q = encodeURIComponent(SEARCHES[index % SEARCHES.length] as string);
      alone.push(await timedGet(`${baseUrl}/api/contracts?per_page=20&q=${q}`, key, agent));
    }
    const stopFour = await startSearchers(baseUrl, key, 4, together);
    for (let index = 0; index < PROBES_PER_ROUND; index += 1) busy.push(await timedGet(probe, key, agent));
    await stopFour();
  }
  return { busyP99: p99(busy), idleP99: p99(idle), searchP99: p99(together), searchIdleP99: p99(alone) };
}
