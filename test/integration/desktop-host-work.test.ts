import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreWebhookEventType } from '../../shared/api/webhooks';
import { openOfflineContext } from '../../server/app/context-offline';
import { openDatabase } from '../../server/db/open-database';
import { loadConfig } from '../../server/index';
import { WEBHOOK_CONCURRENCY } from '../../server/webhooks/webhook-worker';
import { prepareDataDir } from '../helpers/desktop-smoke';
import { forkHost, isListening, type ForkedHost } from '../helpers/host-process';
import { queueMail, waitForOutboxState } from '../helpers/outbox';
import { apiClient } from '../helpers/server';
import { startSmtpReceiver, type SmtpReceiver } from '../helpers/smtp-receiver';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';
import { recordTestEvent, recordTestEvents } from '../helpers/webhooks';

const HOUR_MS = 3_600_000;

type Env = Record<string, string>;
type OfflineServer = Parameters<typeof recordTestEvents>[0];

/**
 * Writes to the host's DATA_DIR from this process, beside the running server (unlocked, as only a test may): the
 * events and mail go in through the same services, and the host finds them at its next look.
 */
async function withDataDir<T>(env: Env, write: (server: OfflineServer) => Promise<T>): Promise<T> {
  const opened = await openOfflineContext(loadConfig(env), 'unlocked');
  try {
    return await write({ ctx: opened.ctx });
  } finally {
    await opened.close();
  }
}

const signedEvent = (n: number): readonly [CoreWebhookEventType, { id: string }] => [
  'contract.signed',
  { id: `/api/contracts/${n}` },
];

type DeliveryRow = {
  state: string;
  url: string;
  payload: string;
  attempts: number;
  outcomes: string | null;
  job: string | null;
};
type MessageRow = { state: string; messageId: string | null; job: string | null };

/** What the database holds once the host has exited, opened afresh as the next start would. */
function inspectAfterExit(dataDir: string) {
  const file = path.join(dataDir, 'signdesk.sqlite');
  const walBytes = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
  const opened = openDatabase(file);
  try {
    const db = opened.sqlite;
    return {
      walBytes,
      integrity: db.pragma('integrity_check', { simple: true }),
      deliveries: db
        .prepare(
          `
        SELECT d.state, c.url, e.payload,
          (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts,
          (SELECT group_concat(a.outcome) FROM webhook_attempts a WHERE a.delivery_id = d.id) AS outcomes,
          (SELECT group_concat(j.status) FROM jobs j WHERE j.queue = 'webhook' AND j.ref_id = d.id) AS job
        FROM webhook_deliveries d JOIN webhook_consumers c ON c.id = d.consumer_id JOIN webhook_events e ON e.id = d.event_id`,
        )
        .all() as DeliveryRow[],
      messages: db
        .prepare(
          `
        SELECT m.state, m.message_id AS messageId,
          (SELECT group_concat(j.status) FROM jobs j WHERE j.queue = 'outbox' AND j.ref_id = m.id) AS job
        FROM outbox_messages m`,
        )
        .all() as MessageRow[],
    };
  } finally {
    opened.close();
  }
}

describe('the server host with real webhook deliveries and mail', { timeout: 120_000 }, () => {
  const hosts: ForkedHost[] = [];
  const receivers: Array<WebhookReceiver | SmtpReceiver> = [];
  afterEach(async () => {
    for (const host of hosts.splice(0))
      if (host.child.exitCode === null && host.child.signalCode === null) host.child.kill('SIGKILL');
    for (const receiver of receivers.splice(0)) await receiver.close();
  });

  const startHost = async (env: Env) => {
    const host = forkHost({ env });
    hosts.push(host);
    return { host, ready: await host.client.ready };
  };
  const register = async (api: ReturnType<typeof apiClient>, receiver: WebhookReceiver, url: string) => {
    const consumer = await api('POST', '/api/webhooks', { body: { url } });
    expect(consumer.status).toBe(201);
    receiver.trust(consumer.body.key_id, consumer.body.public_key);
    return consumer.body as { self: string };
  };

  it('gives the tray the deliveries and messages really waiting, and the figures fall as they go out', async () => {
    let answer = 503;
    const receiver = await startWebhookReceiver();
    receiver.respond(() => answer);
    const smtp = await startSmtpReceiver();
    receivers.push(receiver, smtp);
    const { dataDir, key } = await prepareDataDir();
    // No SMTP yet: mail waits in the outbox for the settings.
    const env = { DATA_DIR: dataDir, PORT: '0', WEBHOOK_FIRST_DELAY_S: '0' };
    const { host, ready } = await startHost(env);
    const api = apiClient(ready.url, key);
    const consumer = await register(api, receiver, `${receiver.url}/tray`);
    expect(await host.client.status()).toMatchObject({ queuedDeliveries: 0, outboxPending: 0 });

    const { eventIds, mailIds } = await withDataDir(env, async (server) => ({
      eventIds: await recordTestEvents(server, [signedEvent(1), signedEvent(2), signedEvent(3)]),
      mailIds: [
        await queueMail(server, { to: 'anna@example.test' }),
        await queueMail(server, { to: 'bo@example.test' }),
      ],
    }));
    expect(await host.client.status()).toMatchObject({ queuedDeliveries: 3, outboxPending: 2 });
    // The host tries them: the receiver answers 503 (retried in 5 minutes), the mail has no server.
    await expect.poll(() => receiver.verified().length, { timeout: 10_000 }).toBe(3);
    for (const id of mailIds) await waitForOutboxState(api, id, 'waiting-for-config');
    expect(await host.client.status()).toMatchObject({ queuedDeliveries: 3, outboxPending: 2 });

    answer = 200;
    for (const eventId of eventIds)
      expect((await api('POST', `${consumer.self}/events/${eventId}/retry`)).status).toBe(200);
    const settings = await api('PUT', '/api/settings/messaging', {
      body: { smtp_url: smtp.url, mail_from: 'office@office.test' },
    });
    expect(settings.status).toBe(200);
    await expect
      .poll(() => host.client.status(), { timeout: 15_000 })
      .toMatchObject({ queuedDeliveries: 0, outboxPending: 0 });
    expect(receiver.requests.filter((request) => request.status === 200)).toHaveLength(3);
    expect(
      (await smtp.waitForMails(2))
        .map((mail) => mail.envelopeTo)
        .flat()
        .sort(),
    ).toEqual(['anna@example.test', 'bo@example.test']);
    expect(await host.client.shutdown(30_000)).toEqual({ code: 0, isKilled: false });
  });

  it('shuts down with deliveries and mail in flight: each is finished and recorded, or still queued; none lost or half-recorded; WAL checkpointed, database intact', async () => {
    // Slow receivers: each holds what it gets until the shutdown has begun.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let heldDeliveries = 0;
    let heldMails = 0;
    const receiver = await startWebhookReceiver();
    receiver.respond(async () => {
      heldDeliveries += 1;
      await gate;
      return 200;
    });
    const smtp = await startSmtpReceiver({
      holdData: async () => {
        heldMails += 1;
        await gate;
      },
    });
    receivers.push(receiver, smtp);
    const { dataDir, key } = await prepareDataDir();
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      WEBHOOK_FIRST_DELAY_S: '0',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'office@office.test',
    };
    const { host, ready } = await startHost(env);
    const api = apiClient(ready.url, key);
    for (const name of ['a', 'b']) await register(api, receiver, `${receiver.url}/${name}`);

    // 24 deliveries due now (more than fit in flight), 4 due in an hour, 6 mails.
    await withDataDir(env, async (server) => {
      await recordTestEvents(
        server,
        Array.from({ length: 12 }, (_, i) => signedEvent(i + 1)),
      );
      for (const n of [13, 14]) await recordTestEvent(server, ...signedEvent(n), { now: () => Date.now() + HOUR_MS });
      for (let i = 1; i <= 6; i += 1) await queueMail(server, { to: `party${i}@example.test`, subject: `Mail ${i}` });
    });
    await expect.poll(() => heldDeliveries, { timeout: 10_000 }).toBe(WEBHOOK_CONCURRENCY);
    await expect.poll(() => heldMails, { timeout: 10_000 }).toBeGreaterThan(0);

    const shutdown = host.client.shutdown(30_000);
    await host.client.whenStopping();
    await expect.poll(() => isListening(ready.url), { timeout: 10_000 }).toBe(false);
    expect(host.child.exitCode).toBeNull(); // the work in flight holds it
    const inFlight = { deliveries: heldDeliveries, mails: heldMails };
    release();
    expect(await shutdown).toEqual({ code: 0, isKilled: false });

    const after = inspectAfterExit(dataDir);
    expect(after.walBytes).toBe(0);
    expect(after.integrity).toBe('ok');

    // Each delivery: sent once and recorded as delivered with its job gone, or never sent and
    // still pending with its job queued.
    expect(after.deliveries).toHaveLength(28);
    for (const row of after.deliveries) {
      const shape = { state: row.state, attempts: row.attempts, outcomes: row.outcomes, job: row.job };
      expect([
        { state: 'delivered', attempts: 1, outcomes: 'delivered', job: null },
        { state: 'pending', attempts: 0, outcomes: null, job: 'queued' },
      ]).toContainEqual(shape);
    }
    const delivered = after.deliveries.filter((row) => row.state === 'delivered');
    expect(delivered.length).toBeGreaterThanOrEqual(inFlight.deliveries);
    expect(after.deliveries.filter((row) => row.state === 'pending').length).toBeGreaterThanOrEqual(4);
    const keyOf = (consumerPath: string, payload: { data: { id: string } }) => `${consumerPath} ${payload.data.id}`;
    expect(
      receiver.requests
        .map((request) => (request.isVerified ? keyOf(request.path, request.json) : request.verifyError))
        .sort(),
    ).toEqual(delivered.map((row) => keyOf(new URL(row.url).pathname, JSON.parse(row.payload))).sort());

    // Each mail: accepted by the SMTP server once and recorded as sent with its job gone, or
    // still queued with its job.
    expect(after.messages).toHaveLength(6);
    for (const row of after.messages) {
      expect([
        { state: 'sent', job: null },
        { state: 'queued', job: 'queued' },
      ]).toContainEqual({ state: row.state, job: row.job });
    }
    const sent = after.messages.filter((row) => row.state === 'sent');
    expect(sent.length).toBeGreaterThanOrEqual(inFlight.mails);
    expect(smtp.mails.map((mail) => mail.mail.messageId).sort()).toEqual(sent.map((row) => row.messageId).sort());
  }, 60_000);
});
