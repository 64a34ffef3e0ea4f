/**
 * Webhook deliveries a second, in one run:
 * - ours, due: N events queued at once (recordEvent in one transaction, one consumer) until every
 *   delivery is recorded as delivered: durable queue, batch claims, RFC 9421 signing, POST,
 *   attempt rows;
 * - ours, held: the same N recorded while the consumer is disabled, from its enabling until
 *   every one is delivered (released a window at a time, sent one after another in event order);
 * - baseline: a bare loop that signs the same requests with sodium and POSTs them with
 *   http.request and a keep-alive agent, 16 at a time, with no storage at all.
 * Both send to the same receiver in its own process, which verifies nothing and answers 200.
 * Run alone: npx tsx bench/webhooks.ts [count]
 */
import { createHash } from 'node:crypto';
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sodium from 'sodium-native';
import { inTransaction } from '../server/db/open-database';
import { createServer, loadConfig } from '../server/index';
import { recordEvent } from '../server/webhooks/record-event';
import { createWebhook, enableWebhook } from '../server/webhooks/save-webhook';
import { rawSql } from '../server/db/raw-sql';

const COUNT = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = 16;

function line(name: string, value: number, unit: string, baseline: number): void {
  console.log(
    `${name}: ${value.toFixed(0)} ${unit} (baseline ${baseline.toFixed(0)}, ratio ${(value / baseline).toFixed(2)})`,
  );
}

/** The receiver, in a child process: counts requests and says when it has seen the number asked for. */
function runReceiver(): void {
  let seen = 0;
  let target = Infinity;
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
      seen += 1;
      if (seen === target) process.send?.({ type: 'done' });
    });
  });
  process.on('message', (message: { type: 'expect'; count: number }) => {
    seen = 0;
    target = message.count;
    process.send?.({ type: 'ready' });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.send?.({ type: 'listening', url: `http://127.0.0.1:${address.port}` });
  });
}

/** `expect(n)` resolves once the receiver is counting, with `done` settling at the n-th request. */
type Receiver = { url: string; expect(count: number): Promise<{ done: Promise<void> }>; close(): void };

async function startReceiver(): Promise<Receiver> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--receiver'], { execArgv: ['--import', 'tsx'] });
  const next = () => new Promise<{ type: string; url?: string }>((resolve) => child.once('message', resolve));
  const { url } = await next();
  return {
    url: url as string,
    async expect(count) {
      const ready = next();
      child.send({ type: 'expect', count });
      await ready;
      return { done: next().then(() => undefined) };
    },
    close: () => child.kill(),
  };
}

/** The baseline: sign (sodium, the same signature base) and POST, CONCURRENCY at a time. */
async function bareLoop(url: URL, count: number): Promise<number> {
  const publicKey = Buffer.alloc(sodium.crypto_sign_PUBLICKEYBYTES);
  const secretKey = sodium.sodium_malloc(sodium.crypto_sign_SECRETKEYBYTES);
  sodium.crypto_sign_keypair(publicKey, secretKey);
  const agent = new http.Agent({ keepAlive: true });
  const post = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const body = Buffer.from(
        JSON.stringify({
          type: 'contract.signed',
          timestamp: '2026-01-01 12:00:00',
          data: { id: `/api/contracts/${n}` },
        }),
      );
      const created = Math.floor(Date.now() / 1000);
      const date = new Date(created * 1000).toUTCString();
      const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
      const params = `("@method" "@path" "host" "date" "content-digest");keyid="ed25519-1";alg="ed25519";created=${created};expires=${created + 300}`;
      const base = `"@method": POST\n"@path": ${url.pathname}\n"host": ${url.host}\n"date": ${date}\n"content-digest": ${digest}\n"@signature-params": ${params}`;
      const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
      sodium.crypto_sign_detached(signature, Buffer.from(base), secretKey);
      const request = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            host: url.host,
            date,
            'content-type': 'application/json',
            'content-length': body.length,
            'content-digest': digest,
            'signature-input': `sig1=${params}`,
            signature: `sig1=:${signature.toString('base64')}:`,
          },
        },
        (response) => {
          response.on('data', () => {});
          response.on('end', resolve);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await post((next += 1));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return count / seconds;
}

/** Ours: N events in one transaction, timed from the commit until every delivery is recorded. */
async function signDesk(url: string, count: number, receiver: Receiver, isHeld = false): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signdesk-bench-webhooks-'));
  const server = await createServer(
    loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_FIRST_DELAY_S: '0' }),
  );
  const { ctx } = server;
  try {
    const admin = await ctx.repos.users.insert({
      username: 'bench',
      email: 'bench@office.test',
      permissionTemplate: 'CUSTOMER_ADMIN_USER',
      createdAt: ctx.now(),
    });
    const consumer = await createWebhook(ctx, { url }, admin.id);
    // Held: recorded while the consumer is disabled, timed from its enabling.
    if (isHeld) await ctx.repos.webhookConsumers.disable(consumer.id, ctx.now());
    const { done: delivered } = await receiver.expect(count);
    await inTransaction(ctx.db, async () => {
      for (let n = 1; n <= count; n += 1) await recordEvent(ctx, 'contract.signed', { id: `/api/contracts/${n}` });
    });
    const started = performance.now();
    if (isHeld) await enableWebhook(ctx, consumer.id);
    await delivered;
    while ((await ctx.repos.jobs.countPending('webhook')) > 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const seconds = (performance.now() - started) / 1000;
    const delivered200 = (await rawSql(ctx.db).get(
      "SELECT count(*) AS n FROM webhook_deliveries WHERE state = 'delivered'",
    )) as { n: number };
    if (delivered200.n !== count)
      throw new Error(`only ${delivered200.n} of ${count} deliveries recorded as delivered`);
    return count / seconds;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const receiver = await startReceiver();
  try {
    const url = `${receiver.url}/hooks/signdesk`;
    // Warm both paths (JIT, sockets) before measuring.
    const warm = await receiver.expect(500);
    await bareLoop(new URL(url), 500);
    await warm.done;
    await signDesk(url, 500, receiver);

    const bare = await receiver.expect(COUNT);
    const baseline = await bareLoop(new URL(url), COUNT);
    await bare.done;
    const ours = await signDesk(url, COUNT, receiver);
    const held = await signDesk(url, COUNT, receiver, true);
    line(`webhook deliveries (${COUNT} queued events, signed, recorded)`, ours, 'deliveries/s', baseline);
    line(`webhook held deliveries (${COUNT} held events released by enabling)`, held, 'deliveries/s', baseline);
    line(`webhook held deliveries against due ones (${COUNT} events)`, held, 'deliveries/s', ours);
  } finally {
    receiver.close();
  }
}

if (process.argv.includes('--receiver')) runReceiver();
else await main();
