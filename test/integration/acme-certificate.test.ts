import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPebble, type Pebble } from '../helpers/pebble';
import type { Config } from '../../server/index';
import { startTestServer, type TestServer } from '../helpers/server';

/** The chain as served (leaf first) verifies up to `rootPem`, link by link, and the root signs itself. */
function chainVerifies(chainPem: string, rootPem: string): boolean {
  const certs = [...chainPem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)].map(
    (match) => new X509Certificate(match[0]),
  );
  const root = new X509Certificate(rootPem);
  const path = [...certs, root];
  return path.slice(0, -1).every((cert, i) => cert.checkIssued(path[i + 1]!) && cert.verify(path[i + 1]!.publicKey));
}

/** What the party listener serves to a client that trusts only `ca` (the handshake itself verifies the chain). */
function servedCertificate(url: string, ca: string): Promise<tls.PeerCertificate> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: hostname, port: Number(port), servername: 'localhost', ca }, () => {
      const certificate = socket.getPeerCertificate();
      socket.end();
      resolve(certificate);
    });
    socket.once('error', reject);
  });
}

/** A GET over HTTPS to the party listener, trusting only `ca`. */
function getOverHttps(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, servername: 'localhost' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('the ACME certificate, from a real pebble', { timeout: 120_000 }, () => {
  let pebble: Pebble;
  let t: TestServer;
  let root: string;
  let settings: Partial<Config>;
  const status = async () => (await t.api('GET', '/api/settings/acme')).body;
  const served = () => servedCertificate(t.server.publicUrl as string, root);

  beforeAll(async () => {
    const challengePort = await freePort();
    pebble = await startPebble({ challengePort });
    root = await pebble.rootPem();
    settings = {
      logLevel: 'debug',
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: 'localhost',
        email: 'it@office.test',
        directoryUrl: pebble.directoryUrl,
        caFile: pebble.caFile,
        httpPort: challengePort,
      },
    };
    t = await startTestServer(settings);
  });
  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
  });

  it('is obtained at start over HTTP-01, issued by pebble, and kept with the office’s keys (owner-only in DATA_DIR/keys)', async () => {
    await expect.poll(async () => (await status()).certificate, { timeout: 60_000, interval: 200 }).not.toBeNull();
    const body = await status();
    expect(body).toMatchObject({
      is_enabled: true,
      domain: 'localhost',
      email: 'it@office.test',
      directory_url: pebble.directoryUrl,
      last_error: null,
      is_obtaining: false,
    });
    expect(body.certificate.domains).toEqual(['localhost']);
    expect(body.certificate.issuer).toMatch(/Pebble Intermediate CA/);
    expect(body.last_renewal_time).not.toBeNull();
    // The next look is the renewal time: a third of the lifetime before expiry.
    expect(body.next_attempt_time).toBe(body.certificate.renewal_time);
    expect(pebble.output()).toMatch(/acme-challenge|validat/i);

    // Where the office keeps its keys: DATA_DIR/keys beside SQLite, sealed rows on PostgreSQL.
    const keys = t.server.ctx.keys;
    const chain = (await keys.read('acme-certificate.pem'))!.toString('utf8');
    expect(chainVerifies(chain, root)).toBe(true);

    // The party listener serves it: a client trusting only pebble's root completes the handshake
    // (chain, name and dates checked by TLS), sees the same serial, and gets an answer.
    const certificate = await served();
    expect(certificate.serialNumber).toBe(body.certificate.serial);
    expect(certificate.issuer.CN).toMatch(/^Pebble Intermediate CA/);
    const health = await getOverHttps(`${t.server.publicUrl}/healthz`, root);
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body).status).toBe('ok');
    // The reach settings name the mode and the certificate served.
    const reach = (await t.api('GET', '/api/settings/reach')).body;
    expect(reach.mode).toBe('acme');
    expect(reach.certificate).toMatchObject({
      issuer: body.certificate.issuer,
      names: ['localhost'],
      last_error: null,
    });
    const names = ['acme-account.key', 'acme-certificate.key', 'acme-certificate.pem'];
    if (keys.kind === 'files')
      for (const name of names) expect(fs.statSync(path.join(t.dataDir, 'keys', name)).mode & 0o077).toBe(0);
    else expect(await keys.list()).toEqual(expect.arrayContaining(names));
    // No key in the answer, and none in the log.
    const key = (await keys.read('acme-certificate.key'))!.toString('utf8');
    const account = (await keys.read('acme-account.key'))!.toString('utf8');
    expect(JSON.stringify(body)).not.toMatch(/PRIVATE KEY/);
    const logs = path.join(t.dataDir, 'logs');
    const log = fs
      .readdirSync(logs)
      .map((name) => fs.readFileSync(path.join(logs, name), 'utf8'))
      .join('\n');
    expect(log).toMatch(/certificate obtained from the ACME CA/);
    for (const secret of [key, account]) expect(log).not.toContain(secret.split('\n')[1]);
  });

  it('is renewed on "Renew now": a new certificate, a new serial', async () => {
    const before = (await status()).certificate;
    const asked = await t.api('POST', '/api/settings/acme/renew');
    expect(asked.status).toBe(202);
    await expect
      .poll(async () => (await status()).certificate.serial, { timeout: 60_000, interval: 200 })
      .not.toBe(before.serial);
    expect((await status()).last_error).toBeNull();
    // Served from the next handshake on, without a restart.
    expect((await served()).serialNumber).toBe((await status()).certificate.serial);
  });

  it('is renewed by itself once the renewal time has come', async () => {
    const before = await status();
    const leaf = new X509Certificate((await t.server.ctx.keys.read('acme-certificate.pem'))!);
    const [notBefore, notAfter] = [Date.parse(leaf.validFrom), Date.parse(leaf.validTo)];
    // The server's time moves a minute past the point where a third of the lifetime is left.
    t.clock.shift(notAfter - (notAfter - notBefore) / 3 - Date.now() + 60_000);
    t.server.ctx.acme.signal.wake();
    await expect
      .poll(async () => (await status()).certificate.serial, { timeout: 60_000, interval: 200 })
      .not.toBe(before.certificate.serial);
    // Back to the real time: the new certificate's renewal is years away, and the job sleeps until then.
    t.clock.reset();
    await expect
      .poll(
        async () => {
          const now = await status();
          return !now.is_obtaining && now.next_attempt_time === now.certificate.renewal_time;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    expect((await status()).last_error).toBeNull();
    expect((await served()).serialNumber).toBe((await status()).certificate.serial);
  });

  it('keeps the certificate in force when the CA fails, and says why', async () => {
    const before = (await status()).certificate;
    await pebble.stop();
    expect((await t.api('POST', '/api/settings/acme/renew')).status).toBe(202);
    await expect.poll(async () => (await status()).last_error, { timeout: 60_000, interval: 200 }).not.toBeNull();
    const after = await status();
    expect(after.last_error).toMatch(/^the ACME CA cannot be reached: ECONN(REFUSED|RESET)/);
    expect(after.last_error).not.toMatch(/127\.0\.0\.1/);
    expect(after.certificate.serial).toBe(before.serial);
    expect((await served()).serialNumber).toBe(before.serial);
    expect(after.next_attempt_time).not.toBeNull();
    expect((await t.api('GET', '/api/settings/reach')).body.certificate).toMatchObject({
      issuer: before.issuer,
      last_error: after.last_error,
      last_error_time: after.last_attempt_time,
    });
  });

  it('is served again at once after a restart, from the office’s keys, with the CA still down', async () => {
    const before = await status();
    await t.close();
    t = await startTestServer(settings, t.dataDir);
    expect((await served()).serialNumber).toBe(before.certificate.serial);
    const after = await status();
    expect(after.certificate.serial).toBe(before.certificate.serial);
    expect(after.last_renewal_time).toBe(before.last_renewal_time);
    // The job looks at once at a start; the certificate is not due, so it sleeps until the renewal time.
    await expect
      .poll(async () => (await status()).next_attempt_time, { timeout: 30_000, interval: 100 })
      .toBe(before.certificate.renewal_time);
  });
});

describe('the ACME domain saved in the settings (the desktop app has no environment)', { timeout: 120_000 }, () => {
  let pebble: Pebble;
  let t: TestServer;
  let settings: Partial<Config>;
  const status = async () => (await t.api('GET', '/api/settings/acme')).body;
  beforeAll(async () => {
    const challengePort = await freePort();
    pebble = await startPebble({ challengePort });
    // Where the CA is, but no ACME_DOMAIN: the office turns ACME on in the settings.
    settings = {
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: undefined,
        email: undefined,
        directoryUrl: pebble.directoryUrl,
        caFile: pebble.caFile,
        httpPort: challengePort,
      },
    };
    t = await startTestServer(settings);
  });
  afterAll(async () => {
    await t?.close();
    await pebble?.stop();
  });

  it('refuses a name that is no DNS name, and changes nothing', async () => {
    for (const domain of ['https://sign.office.test', '*.office.test', '10.0.0.7', 'a'.repeat(300)]) {
      const response = await t.api('PUT', '/api/settings/acme', { body: { domain } });
      expect(response.status, domain).toBe(400);
      expect(JSON.stringify(response.body)).toMatch(/domain: /);
    }
    expect(await status()).toMatchObject({ is_enabled: false, configured_domain: null, source: null });
  });

  it('saves the domain for the next start, and then obtains its certificate', async () => {
    const saved = await t.api('PUT', '/api/settings/acme', { body: { domain: 'LOCALHOST', email: 'it@office.test' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      is_enabled: false,
      configured_domain: 'localhost',
      source: 'settings',
      is_restart_needed: true,
      // The e-mail counts from the next order on; the domain from the next start.
      email: 'it@office.test',
    });
    await t.close();
    t = await startTestServer(settings, t.dataDir);
    await expect.poll(async () => (await status()).certificate, { timeout: 60_000, interval: 200 }).not.toBeNull();
    expect(await status()).toMatchObject({
      is_enabled: true,
      domain: 'localhost',
      email: 'it@office.test',
      source: 'settings',
      is_restart_needed: false,
      last_error: null,
    });
    expect(settings.acme?.domain).toBeUndefined();
    expect((await t.api('GET', '/api/settings/reach')).body.mode).toBe('acme');
  });
});
