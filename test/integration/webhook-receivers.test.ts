import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ed25519Signer } from '../../server/crypto/webhook-keys';
import { postSigned, startReceiverProcess, type ReceiverProcess } from '../helpers/receiver-process';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeContract } from '../helpers/signing';
import { refusedPort } from '../helpers/webhook-receiver';

const examples = path.resolve(import.meta.dirname, '../../docs/examples');
const RECEIVERS = {
  node: (port: number) => ['node', [path.join(examples, 'webhook-receiver.mjs')], port] as const,
  python: (port: number) => ['python3', [path.join(examples, 'webhook_receiver.py')], port] as const,
};

/**
 * The receivers the docs show (docs/examples), each run as an integrator runs it, registered as
 * a consumer of a real SignDesk: they verify and handle its real deliveries, and refuse every
 * forgery (changed body, changed digest, expired, another key, unsigned) with 400.
 */
describe('the documented webhook receivers', () => {
  let t: TestServer;
  let work: string;
  const running: Record<string, { receiver: ReceiverProcess; signer: Ed25519Signer; keyId: string }> = {};

  beforeAll(async () => {
    t = await startTestServer({ webhookFirstDelayS: 0 });
    work = makeTempDir('signdesk-receivers-');
    for (const [name, command] of Object.entries(RECEIVERS)) {
      const [program, args, port] = command(await refusedPort());
      const consumer = await t.api('POST', '/api/webhooks', { body: { url: `http://127.0.0.1:${port}/webhooks` } });
      expect(consumer.status).toBe(201);
      const keyFile = path.join(work, `${name}.pem`);
      fs.writeFileSync(keyFile, consumer.body.public_key);
      const receiver = await startReceiverProcess(program, [...args], {
        cwd: work,
        env: { SIGNDESK_KEY_ID: consumer.body.key_id, SIGNDESK_PUBLIC_KEY_FILE: keyFile },
        port,
      });
      const row = await t.server.ctx.repos.webhookConsumers.findById(Number(consumer.body.self.split('/').at(-1)));
      if (!row) throw new Error('consumer not stored');
      running[name] = {
        receiver,
        signer: await t.server.ctx.webhooks.keyring.signerFor(row.id, row.publicKey, row.sealedSecretKey),
        keyId: consumer.body.key_id,
      };
    }
  }, 120_000);
  afterAll(async () => {
    for (const { receiver } of Object.values(running)) await receiver.close();
    await t.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('verify and handle the deliveries of a contract signed for real', { timeout: 60_000 }, async () => {
    const contract = await makeContract(t, [{ name: 'Office', email: 'office@office.test', user: t.adminPath }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: { auto_sign: true, silent: true } })).status).toBe(
      200,
    );
    for (const [name, { receiver }] of Object.entries(running)) {
      await expect
        .poll(() => receiver.events().map((event) => `${event.type} ${event.data.id}`), {
          timeout: 30_000,
          interval: 50,
        })
        .toEqual(
          expect.arrayContaining([`contract.party_signed ${contract.self}`, `contract.signed ${contract.self}`]),
        );
      expect(receiver.refusals(), name).toEqual([]);
    }
    await expect
      .poll(
        async () => {
          const logs = await Promise.all(
            ['/api/webhooks/1/events', '/api/webhooks/2/events'].map((log) => t.api('GET', log)),
          );
          return logs.flatMap((log) => log.body.map((event: { state: string }) => event.state));
        },
        { timeout: 30_000, interval: 50 },
      )
      .toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
  });

  it('refuse forgeries with 400 and handle an event once by its Webhook-Id', { timeout: 60_000 }, async () => {
    const body = JSON.stringify({
      type: 'contract.signed',
      timestamp: '2026-11-22 15:30:00',
      data: { id: '/api/contracts/99' },
    });
    const forged = body.replace('/99', '/98');
    const other = generateKeyPairSync('ed25519').privateKey;
    const otherSigner: Ed25519Signer = { sign: (message) => sign(null, message, other) };
    for (const [name, { receiver, signer, keyId }] of Object.entries(running)) {
      const before = receiver.events().length;
      const statuses = [
        await postSigned(receiver.url, { body, signer, keyId, tamper: { body: forged } }),
        await postSigned(receiver.url, {
          body,
          signer,
          keyId,
          tamper: {
            body: forged,
            headers: { 'content-digest': `sha-256=:${createHash('sha256').update(forged).digest('base64')}:` },
          },
        }),
        await postSigned(receiver.url, { body, signer, keyId, nowMs: Date.now() - 301_000 }),
        await postSigned(receiver.url, { body, signer: otherSigner, keyId }),
        await postSigned(receiver.url, { body, signer, keyId: 'ed25519-999' }),
        await postSigned(receiver.url, { body, signer, keyId, tamper: { headers: { signature: 'sig1=:AAAA:' } } }),
      ];
      expect(statuses, name).toEqual([400, 400, 400, 400, 400, 400]);
      // The receiver logs each refusal on stderr, which may arrive after its answer.
      await expect
        .poll(() => receiver.refusals().length, { timeout: 10_000, interval: 20, message: name })
        .toBeGreaterThanOrEqual(6);
      expect(receiver.events().length, name).toBe(before);
      // The same event twice (a retry): answered 200 both times, handled once.
      const once = { body, signer, keyId, tamper: { headers: { 'webhook-id': `${name}-7` } } };
      expect([await postSigned(receiver.url, once), await postSigned(receiver.url, once)], name).toEqual([200, 200]);
      expect(receiver.events().filter((event) => event.webhookId === `${name}-7`).length, name).toBe(1);
    }
  });
});
