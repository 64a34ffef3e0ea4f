/**
 * The party's signing page on a phone over a slow link: Chromium with the iPhone 13 profile,
 * 150 ms latency, 200,000 B/s each way, CPU slowed 4x, empty cache (a new browser context per
 * run), median of 3 runs, for a 3-page and a 50-page contract, each beside the floor of that
 * link: a bare node:http page with one ~150 KB image. "First page drawn" is the render time of
 * the first page's image (element timing, the same measure as the floor's image); "ready to
 * sign" is when the page's answer controls are in place; bytes are what crossed the wire
 * (encoded) once the network went quiet. Each run signs a fresh contract, so every page image
 * is drawn on the server anew; one run before the measured ones starts the server's PDF workers.
 * Run alone: `npx tsx bench/signing-page.ts`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { chromium, devices, type Browser } from 'playwright-core';
import { build } from 'vite';
import { makeContractPdf } from '../test/helpers/make-contract-pdf';
import { startTestServer, type TestServer } from '../test/helpers/server';
import { report } from './lib';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LINK = { latency: 150, throughput: 200_000, cpu: 4 };
const root = path.resolve(import.meta.dirname, '..');

type Run = { drawnMs: number; readyMs: number; bytes: number };

/** ~150 KB of JPEG: noise compresses badly, so a small picture reaches the size. */
function floorImage(): Buffer {
  const canvas = createCanvas(780, 520);
  const context = canvas.getContext('2d');
  for (let y = 0; y < 520; y += 4) {
    for (let x = 0; x < 780; x += 4) {
      context.fillStyle = `rgb(${(x * 7 + y * 13) % 256},${Math.floor(Math.random() * 256)},${(x ^ y) % 256})`;
      context.fillRect(x, y, 4, 4);
    }
  }
  let quality = 95;
  let image = canvas.toBuffer('image/jpeg', quality);
  while (image.length > 155_000 && quality > 10) image = canvas.toBuffer('image/jpeg', (quality -= 5));
  return image;
}

async function startFloor(): Promise<{ url: string; close: () => void }> {
  const image = floorImage();
  const html =
    '<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head><body style="margin:0"><img elementtiming="first-page" src="/image.jpg" style="width:100%" alt=""></body></html>';
  const server = http.createServer((req, res) => {
    if (req.url === '/image.jpg')
      return void res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': image.length }).end(image);
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/** One visit with an empty cache on the throttled phone; resolves once the network has gone quiet. */
async function visit(browser: Browser, url: string, readySelector: string): Promise<Run> {
  const context = await browser.newContext({ ...devices['iPhone 13'] });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: LINK.latency,
    downloadThroughput: LINK.throughput,
    uploadThroughput: LINK.throughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: LINK.cpu });
  let bytes = 0;
  let lastActivity = Date.now();
  let inFlight = 0;
  cdp.on('Network.requestWillBeSent', () => ((inFlight += 1), (lastActivity = Date.now())));
  cdp.on(
    'Network.loadingFinished',
    (event: { encodedDataLength: number }) => (
      (bytes += event.encodedDataLength),
      (inFlight -= 1),
      (lastActivity = Date.now())
    ),
  );
  cdp.on('Network.loadingFailed', () => ((inFlight -= 1), (lastActivity = Date.now())));
  await page.goto(url, { waitUntil: 'commit' });
  const drawnMs = await page.evaluate<number>(`new Promise((resolve) => new PerformanceObserver((list) => {
    const entry = list.getEntries().find((each) => each.identifier === 'first-page');
    if (entry) resolve(entry.renderTime || entry.loadTime);
  }).observe({ type: 'element', buffered: true }))`);
  await page.waitForSelector(readySelector, { timeout: 120_000 });
  const readyMs = await page.evaluate<number>(
    `performance.getEntriesByName('signing-ready')[0]?.startTime ?? performance.now()`,
  );
  while (inFlight > 0 || Date.now() - lastActivity < 1_500) await new Promise((resolve) => setTimeout(resolve, 100));
  await context.close();
  return { drawnMs, readyMs, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function signingLink(t: TestServer, pages: number, title: string): Promise<string> {
  const created = await t.api('POST', '/api/contracts', {
    raw: { data: await makeContractPdf({ pages, title }), contentType: 'application/pdf' },
  });
  const self = created.body.self as string;
  await t.api('PUT', self, { body: { name: title } });
  const party = await t.api('POST', `${self}/parties`, { body: { name: 'Åsa Öberg', email: 'asa@example.test' } });
  for (const field of [
    { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 520, width: 220, height: 22 },
    { type: 'SIGNATURE', pdf_page: pages, pos_x: 60, pos_y: 640, width: 220, height: 56 },
  ]) {
    await t.api('POST', `${self}/annotations`, { body: { party_id: party.body.self, input_required: true, ...field } });
  }
  await t.api('POST', `${self}/send`, { body: { silent: true } });
  return (await t.api('GET', party.body.self)).body.contract_url as string;
}

// The page as it ships: the Vite build, as `npm run build:signing` makes it.
const nodeEnv = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
await build({ configFile: path.join(root, 'vite.signing.config.ts'), mode: 'production', logLevel: 'warn' });
process.env.NODE_ENV = nodeEnv;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const floor = await startFloor();
const t = await startTestServer();
try {
  await visit(browser, await signingLink(t, 3, 'Warm-up'), '.action-bar .primary');
  const floorRuns: Run[] = [];
  const ours: Record<number, Run[]> = { 3: [], 50: [] };
  for (let run = 0; run < RUNS; run += 1) {
    floorRuns.push(await visit(browser, floor.url, 'img'));
    for (const pages of [3, 50])
      ours[pages]!.push(
        await visit(browser, await signingLink(t, pages, `Supply agreement ${pages}-${run}`), '.action-bar .primary'),
      );
  }
  const floorDrawn = median(floorRuns.map((run) => run.drawnMs)) / 1000;
  const floorBytes = median(floorRuns.map((run) => run.bytes)) / 1000;
  for (const pages of [3, 50]) {
    const runs = ours[pages]!;
    report(
      `signing page first page drawn, ${pages} pages`,
      median(runs.map((run) => run.drawnMs)) / 1000,
      's',
      floorDrawn,
    );
    report(
      `signing page ready to sign, ${pages} pages`,
      median(runs.map((run) => run.readyMs)) / 1000,
      's',
      floorDrawn,
    );
    report(`signing page bytes down, ${pages} pages`, median(runs.map((run) => run.bytes)) / 1000, 'KB', floorBytes);
  }
} finally {
  await t.close();
  floor.close();
  await browser.close();
}
