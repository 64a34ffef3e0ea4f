import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/pebble';
import { startTestServer, type TestServer } from '../helpers/server';

describe('the ACME challenge listener and a CA that cannot be reached', { timeout: 60_000 }, () => {
  let t: TestServer;
  const status = async () => (await t.api('GET', '/api/settings/acme')).body;
  const plain = (port: number, pathname: string, method = 'GET') =>
    fetch(`http://127.0.0.1:${port}${pathname}`, { method, redirect: 'manual' });

  beforeAll(async () => {
    // A directory URL where nothing listens: every order fails at the first request.
    const closed = await freePort();
    t = await startTestServer({
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: 'sign.office.test',
        email: undefined,
        directoryUrl: `https://127.0.0.1:${closed}/dir`,
        caFile: undefined,
        httpPort: 0,
      },
    });
  });
  afterAll(() => t?.close());

  it('records the failure, serves no certificate, and tries again later', async () => {
    await expect.poll(async () => (await status()).last_error, { timeout: 30_000, interval: 100 }).not.toBeNull();
    const body = await status();
    expect(body.last_error).toBe('the ACME CA cannot be reached: ECONNREFUSED: the connection was refused');
    expect(body.certificate).toBeNull();
    expect(body.next_attempt_time).not.toBeNull();
    expect(body.last_renewal_time).toBeNull();
  });

  it('answers only the tokens of an order under way, and 404 for any other', async () => {
    const port = (await status()).challenge_port as number;
    t.server.ctx.reach.challenges.set('tok-EN_1', 'tok-EN_1.thumbprint');
    const known = await plain(port, '/.well-known/acme-challenge/tok-EN_1');
    expect(known.status).toBe(200);
    expect(await known.text()).toBe('tok-EN_1.thumbprint');
    t.server.ctx.reach.challenges.delete('tok-EN_1');
    for (const pathname of [
      '/.well-known/acme-challenge/tok-EN_1',
      '/.well-known/acme-challenge/',
      '/.well-known/acme-challenge/..%2F..%2Fkeys',
      '/.well-known/acme-challenge/a/b',
    ]) {
      const response = await plain(port, pathname);
      expect(response.status, pathname).toBe(404);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('sends everything else to the HTTPS address, never to a host the request names', async () => {
    const port = (await status()).challenge_port as number;
    const base = t.server.ctx.partyBaseUrl();
    expect(base).toBe(t.server.publicUrl);
    const page = await plain(port, '/sign/abc?x=1');
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe(`${base}/sign/abc?x=1`);
    for (const sneaky of ['//evil.example/x', '/\\evil.example/x']) {
      const response = await plain(port, sneaky);
      expect(response.headers.get('location'), sneaky).toBe(`${base}/`);
    }
    const post = await plain(port, '/api/users', 'POST');
    expect(post.status).toBe(308);
    expect(post.headers.get('set-cookie')).toBeNull();
  });
});

describe('without ACME_DOMAIN', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('says ACME is off, and "Renew now" is refused with a problem', async () => {
    const body = (await t.api('GET', '/api/settings/acme')).body;
    expect(body).toMatchObject({ is_enabled: false, domain: null, certificate: null, next_attempt_time: null });
    const renew = await t.api('POST', '/api/settings/acme/renew');
    expect(renew.status).toBe(409);
    expect(renew.body.detail).toMatch(/ACME_DOMAIN/);
    expect((await t.api('GET', '/api/settings/acme', { key: null })).status).toBe(401);
  });
});

describe('the outbound address policy on the ACME CA', { timeout: 60_000 }, () => {
  let t: TestServer;
  beforeAll(async () => {
    // Cloud metadata's link-local address: refused before any packet leaves (the policy judges the literal).
    t = await startTestServer({
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: 'sign.office.test',
        email: undefined,
        directoryUrl: 'https://169.254.169.254/dir',
        caFile: undefined,
        httpPort: 0,
      },
    });
  });
  afterAll(() => t?.close());

  it('refuses a directory on a refused address, and says so', async () => {
    await expect
      .poll(async () => (await t.api('GET', '/api/settings/acme')).body.last_error, { timeout: 30_000, interval: 100 })
      .toMatch(/^the ACME CA cannot be reached: refused by the outbound address policy: a link-local address/);
  });
});

describe('an ACME_HTTP_PORT that cannot be had', { timeout: 60_000 }, () => {
  let t: TestServer;
  let squatter: net.Server;
  beforeAll(async () => {
    squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    t = await startTestServer({
      publicPort: 0,
      publicHost: '127.0.0.1',
      acme: {
        domain: 'sign.office.test',
        email: undefined,
        directoryUrl: 'https://127.0.0.1:9/dir',
        caFile: undefined,
        httpPort: (squatter.address() as net.AddressInfo).port,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => squatter.close(() => resolve()));
  });

  it('keeps the office served and says why no certificate can be had', async () => {
    expect((await t.api('GET', '/api/users/1')).status).toBe(200);
    await expect
      .poll(async () => (await t.api('GET', '/api/settings/acme')).body.last_error, { timeout: 30_000, interval: 100 })
      .toMatch(/^the HTTP-01 listener could not listen on 127\.0\.0\.1 port \d+ \(EADDRINUSE\)/);
    expect((await t.api('GET', '/api/settings/acme')).body.challenge_port).toBeNull();
  });
});
