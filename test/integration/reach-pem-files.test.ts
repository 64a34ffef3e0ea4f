import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeSelfSigned, servedCommonName, type PemPair } from '../helpers/test-certs';

/** A GET over HTTPS that trusts only `ca`. */
function httpsGet(
  url: string,
  ca: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      })
      .on('error', reject);
  });
}

describe('HTTPS on the party surface from PEM files (PUBLIC_TLS_CERT, PUBLIC_TLS_KEY)', () => {
  let t: TestServer;
  let dir: string;
  let one: PemPair;
  let two: PemPair;
  let port: number;
  const certFile = () => path.join(dir, 'live', 'cert.pem');
  const keyFile = () => path.join(dir, 'live', 'key.pem');
  /** Replaces a file as certbot and editors do: a new file renamed over the old. */
  const replace = (file: string, text: string) => {
    fs.writeFileSync(`${file}.new`, text);
    fs.renameSync(`${file}.new`, file);
  };

  beforeAll(async () => {
    dir = makeTempDir('signdesk-pem-');
    one = makeSelfSigned(dir, 'sign-one.test');
    two = makeSelfSigned(dir, 'sign-two.test');
    fs.mkdirSync(path.join(dir, 'live'));
    fs.writeFileSync(certFile(), one.cert);
    fs.writeFileSync(keyFile(), one.key);
    t = await startTestServer({
      publicPort: 0,
      publicHost: '127.0.0.1',
      publicTlsCert: certFile(),
      publicTlsKey: keyFile(),
    });
    port = Number(new URL(t.server.publicUrl!).port);
  });
  afterAll(() => t.close());

  it('serves the pair over HTTPS, with HSTS, and party links on https', async () => {
    expect(t.server.publicUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(await servedCommonName(port)).toBe('sign-one.test');
    const health = await httpsGet(`${t.server.publicUrl}/healthz`, one.cert);
    expect(health.status).toBe(200);
    expect(health.headers['strict-transport-security']).toBe('max-age=31536000');
    // The office listener speaks plain HTTP and sends no HSTS.
    const office = await fetch(`${t.url}/healthz`);
    expect(office.headers.get('strict-transport-security')).toBeNull();
    const settings = await t.api('GET', '/api/settings/general');
    expect(settings.body.effective_public_base_url).toBe(t.server.publicUrl);
    // Office paths are 404 over HTTPS as well.
    expect((await httpsGet(`${t.server.publicUrl}/api/users`, one.cert)).status).toBe(404);

    // The admin sees the mode and the certificate; the self-check fails as a browser would.
    const reach = await t.api('GET', '/api/settings/reach');
    expect(reach.body).toMatchObject({
      mode: 'pem-files',
      public_listen_url: t.server.publicUrl,
      certificate: {
        subject: 'CN=sign-one.test',
        valid_to: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        fingerprint_sha256: expect.stringMatching(/^[0-9A-F:]{95}$/),
        last_error: null,
      },
    });
    const check = await t.api('POST', '/api/settings/reach/check');
    expect(check.body).toMatchObject({ ok: false, failed_stage: 'tls' });
    expect(check.body.error).toContain('self-signed');
  });

  it('serves a new pair once the files change, and keeps the old one when the new is bad', async () => {
    replace(keyFile(), two.key);
    replace(certFile(), two.cert);
    await expect.poll(() => servedCommonName(port), { timeout: 20_000, interval: 100 }).toBe('sign-two.test');
    expect((await httpsGet(`${t.server.publicUrl}/healthz`, two.cert)).status).toBe(200);

    // A certificate whose key is another's: refused, recorded, the good pair still served.
    replace(certFile(), one.cert);
    const certificate = async () => (await t.api('GET', '/api/settings/reach')).body.certificate;
    await expect
      .poll(async () => (await certificate()).last_error ?? '', { timeout: 20_000, interval: 100 })
      .toContain('not the certificate');
    expect(await servedCommonName(port)).toBe('sign-two.test');
    expect(await certificate()).toMatchObject({
      subject: 'CN=sign-two.test',
      issuer: 'CN=sign-two.test',
      names: ['127.0.0.1', 'localhost'],
      last_error_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /),
    });

    // Mended: the error clears and the new pair is served.
    replace(keyFile(), one.key);
    await expect.poll(() => servedCommonName(port), { timeout: 20_000, interval: 100 }).toBe('sign-one.test');
    expect(await certificate()).toMatchObject({ subject: 'CN=sign-one.test', last_error: null });
  });
});

describe('a PEM pair that is not usable at start', () => {
  it('stops the start with a plain message', async () => {
    const dir = makeTempDir('signdesk-pem-bad-');
    const one = makeSelfSigned(dir, 'sign-one.test');
    const two = makeSelfSigned(dir, 'sign-two.test');
    fs.writeFileSync(path.join(dir, 'cert.pem'), one.cert);
    fs.writeFileSync(path.join(dir, 'key.pem'), two.key);
    await expect(
      startTestServer({
        publicPort: 0,
        publicHost: '127.0.0.1',
        publicTlsCert: path.join(dir, 'cert.pem'),
        publicTlsKey: path.join(dir, 'key.pem'),
      }),
    ).rejects.toThrow(/PUBLIC_TLS_CERT\/PUBLIC_TLS_KEY: the key is not the certificate/);
  });
});
