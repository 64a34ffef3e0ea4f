import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseEnv } from '../helpers/databases';
import { apiClient, makeAdminAndKey, makeTempDir } from '../helpers/server';
import { startWebhookReceiver } from '../helpers/webhook-receiver';
import { inOrderResponder } from '../helpers/webhooks';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'helpers', 'webhook-crash-entry.ts');
const EVENTS = 600;

type Child = { process: ChildProcess; url: string; exited: Promise<NodeJS.Signals | number | null> };

function startChild(dataDir: string): Promise<Child> {
  const child = fork(ENTRY, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      ...testDatabaseEnv(dataDir),
      PORT: '0',
      LOG_LEVEL: 'silent',
      WEBHOOK_FIRST_DELAY_S: '0',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_SCHEDULE_S: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  return new Promise((resolve, reject) => {
    child.once('message', (message: { type: string; url: string }) =>
      resolve({ process: child, url: message.url, exited }),
    );
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
  });
}

function ask<T>(child: Child, command: unknown): Promise<T> {
  return new Promise((resolve) => {
    child.process.once('message', (message: T) => resolve(message));
    child.process.send(command as never);
  });
}

describe('webhook delivery across a crash', () => {
  const children: Child[] = [];
  afterAll(() => {
    for (const child of children) child.process.kill('SIGKILL');
  });

  it('delivers every event at least once after a SIGKILL in the middle of the queue', async () => {
    const receiver = await startWebhookReceiver();
    // A receiver that takes a moment, so that many deliveries are in flight or queued at the kill.
    receiver.respond(() => new Promise((resolve) => setTimeout(() => resolve(200), 15)));
    const dataDir = makeTempDir();
    // Made before the server starts: the CLI cannot take a DATA_DIR a server holds.
    const key = await makeAdminAndKey(dataDir, 'crash');
    const first = await startChild(dataDir);
    children.push(first);
    const consumer = (
      await apiClient(first.url, key)('POST', '/api/webhooks', { body: { url: `${receiver.url}/crash` } })
    ).body;
    receiver.trust(consumer.key_id, consumer.public_key);

    const contractIds = Array.from({ length: EVENTS }, (_, n) => n + 1);
    const recorded = await ask<{ ids: number[] }>(first, { type: 'record', contractIds });
    expect(recorded.ids).toHaveLength(EVENTS);
    await expect.poll(() => receiver.requests.length, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(100);
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const seenAtKill = new Set(receiver.verified().map((request) => request.json.data.id)).size;
    expect(seenAtKill).toBeLessThan(EVENTS);

    const second = await startChild(dataDir);
    children.push(second);
    const api = apiClient(second.url, key);
    const missing = () => {
      const seen = new Set(receiver.verified().map((request) => request.json.data.id));
      return contractIds.filter((id) => !seen.has(`/api/contracts/${id}`)).length;
    };
    await expect.poll(missing, { timeout: 60_000, interval: 100 }).toBe(0);
    const deliveredTotal = async () =>
      Number((await api('GET', `${consumer.self}/events?state=delivered`)).headers.get('pagination-items-total'));
    await expect.poll(deliveredTotal, { timeout: 30_000 }).toBe(EVENTS);
    expect(receiver.requests.every((request) => request.isVerified)).toBe(true);
    // At least once: a few in flight at the kill may come twice, never more than what was in flight.
    expect(receiver.requests.length - EVENTS).toBeLessThanOrEqual(64);

    second.process.send({ type: 'shutdown' });
    expect(await second.exited).toBe(0);
    await receiver.close();
  }, 120_000);

  it('keeps held events in event order across a SIGKILL while they drain', async () => {
    const receiver = await startWebhookReceiver();
    const dataDir = makeTempDir();
    const key = await makeAdminAndKey(dataDir, 'crash-held');
    const first = await startChild(dataDir);
    children.push(first);
    const firstApi = apiClient(first.url, key);
    const consumer = (await firstApi('POST', '/api/webhooks', { body: { url: `${receiver.url}/held` } })).body;
    receiver.trust(consumer.key_id, consumer.public_key);
    // Ten 410 Gone in a row disable the consumer; what happens meanwhile is held.
    receiver.respond(() => 410);
    await ask(first, { type: 'record', contractIds: Array.from({ length: 10 }, (_, n) => 9000 + n) });
    await expect
      .poll(async () => (await firstApi('GET', consumer.self)).body.disabled_time, { timeout: 20_000 })
      .not.toBeNull();
    const held = (
      await ask<{ ids: number[] }>(first, {
        type: 'record',
        contractIds: Array.from({ length: 12 }, (_, n) => 9100 + n),
      })
    ).ids;
    // The receiver hangs: the first released event is in flight, the next ones wait their turn, at the kill.
    receiver.respond(() => new Promise<number>(() => undefined));
    const before = receiver.requests.length;
    expect((await firstApi('POST', `${consumer.self}/enable`)).status).toBe(200);
    await expect.poll(() => receiver.requests.length, { timeout: 20_000, interval: 10 }).toBe(before + 1);
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    // The first one was in flight at the kill: the order is checked from the second on.
    const { respond, early } = inOrderResponder(held, 1);
    receiver.respond(respond);
    const afterKill = receiver.requests.length;
    const second = await startChild(dataDir);
    children.push(second);
    const arrived = () => receiver.requests.slice(afterKill).map((request) => Number(request.headers['webhook-id']));
    // The one in flight at the kill comes again once its claim has lapsed; the others in event order, one at a time.
    await expect.poll(() => new Set(arrived()).size, { timeout: 60_000, interval: 50 }).toBe(held.length);
    expect(arrived().filter((id) => id !== held[0])).toEqual(held.slice(1));
    expect(early).toEqual([]);
    second.process.send({ type: 'shutdown' });
    expect(await second.exited).toBe(0);
    await receiver.close();
  }, 120_000);
});
