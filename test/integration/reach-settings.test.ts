import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/caddy';
import { expectProblem } from '../helpers/problems';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/** A local HTTP server that answers every request with `answer`, or never answers at all. */
async function startStandIn(answer: ((res: http.ServerResponse) => void) | 'silent') {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    if (answer !== 'silent') answer(res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('GET/PUT /api/settings/reach and the self-check', () => {
  let t: TestServer;
  const dataDir = makeTempDir();
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    t = await startTestServer({}, dataDir);
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await t.api('PUT', '/api/settings/general', { body: { public_base_url: null } });
  });
  afterAll(() => t.close());

  const pointLinksAt = async (url: string) =>
    expect((await t.api('PUT', '/api/settings/general', { body: { public_base_url: url } })).status).toBe(200);
  const check = async () => {
    const answer = await t.api('POST', '/api/settings/reach/check');
    expect(answer.status).toBe(200);
    return answer.body;
  };

  it('says there is one listener for all, on a loopback address', async () => {
    const reach = await t.api('GET', '/api/settings/reach');
    expect(reach.status).toBe(200);
    expect(reach.body).toEqual({
      mode: 'off',
      public_base_url: t.url,
      link_reach: 'loopback',
      public_listen_url: null,
      public_port: null,
      public_host: '0.0.0.0',
      source: null,
      is_restart_needed: false,
      listener_error: null,
      trusted_proxies: [],
      certificate: null,
    });
    await pointLinksAt('https://sign.office.example');
    expect((await t.api('GET', '/api/settings/reach')).body).toMatchObject({
      public_base_url: 'https://sign.office.example',
      link_reach: 'public',
    });
    await pointLinksAt('http://192.168.1.20:8750');
    expect((await t.api('GET', '/api/settings/reach')).body.link_reach).toBe('private');
  });

  it('is for administrators only', async () => {
    const bob = await makeUser(t, 'bob-reach');
    expectProblem(await bob.api('GET', '/api/settings/reach'), 403, 'forbidden');
    expectProblem(await bob.api('PUT', '/api/settings/reach', { body: { public_port: 8443 } }), 403, 'forbidden');
    expectProblem(await bob.api('POST', '/api/settings/reach/check'), 403, 'forbidden');
  });

  it('finds its own health answer, and says the only listener serves the office too', async () => {
    // Without a party listener the address leads to the office's: fine on the office network,
    // never on the internet (reach-self-check.test.ts checks the party listener).
    const found = await check();
    expect(found).toMatchObject({
      ok: false,
      url: `${t.url}/healthz`,
      failed_stage: 'exposed',
      addresses: ['127.0.0.1'],
      status: 200,
      surface: 'office',
      office_paths: ['/admin/', '/apidoc/v1/', '/api/openapi.json', '/api/users'],
    });
    expect(found.error).toContain("SignDesk's only listener, which serves the office too");
  });

  it('says when the name does not resolve', async () => {
    // A label over 63 characters: the resolver refuses it on this PC, no query leaves it.
    const name = `${'a'.repeat(64)}.example`;
    await pointLinksAt(`https://${name}`);
    const found = await check();
    expect(found).toMatchObject({ ok: false, failed_stage: 'dns', addresses: [], status: null });
    expect(found.error).toContain(`The name ${name} does not resolve`);
  });

  it('says the port is closed when nothing listens there', async () => {
    const port = await freePort();
    await pointLinksAt(`http://127.0.0.1:${port}`);
    const found = await check();
    expect(found).toMatchObject({ ok: false, failed_stage: 'connect', status: null });
    expect(found.error).toContain('connection refused');
    expect(found.error).toContain(`port ${port}`);
  });

  it('says when something else answers: an error page, another server, or nothing in time', async () => {
    const proxyDown = await startStandIn((res) => res.writeHead(502).end('Bad Gateway'));
    const router = await startStandIn((res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Router</h1>'),
    );
    const other = await startStandIn((res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","instance":"another"}'),
    );
    const silent = await startStandIn('silent');
    closers.push(proxyDown.close, router.close, other.close, silent.close);

    await pointLinksAt(proxyDown.url);
    expect(await check()).toMatchObject({ ok: false, failed_stage: 'http', status: 502 });
    await pointLinksAt(router.url);
    expect(await check()).toMatchObject({ ok: false, failed_stage: 'identity', status: 200 });
    await pointLinksAt(other.url);
    const another = await check();
    expect(another).toMatchObject({ ok: false, failed_stage: 'identity' });
    expect(another.error).toContain('not this SignDesk');
    await pointLinksAt(silent.url);
    const waited = await check();
    expect(waited).toMatchObject({ ok: false, failed_stage: 'http', status: null });
    expect(waited.error).toContain('no answer within 5 s');
  });

  it('saves the party listener for the next start, refusing what cannot work', async () => {
    expectProblem(
      await t.api('PUT', '/api/settings/reach', { body: { public_port: t.server.port } }),
      400,
      'validation-failed',
    );
    for (const body of [{ public_port: 0 }, { public_port: 70_000 }, { public_host: 'a b' }, { public_port: '8443' }]) {
      expectProblem(await t.api('PUT', '/api/settings/reach', { body }), 400, 'validation-failed');
    }
    const port = await freePort();
    const saved = await t.api('PUT', '/api/settings/reach', { body: { public_port: port, public_host: '127.0.0.1' } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      mode: 'off',
      public_listen_url: null,
      public_port: port,
      public_host: '127.0.0.1',
      source: 'settings',
      is_restart_needed: true,
    });

    // The next start opens the party listener on the saved port.
    await t.close();
    t = await startTestServer({}, dataDir);
    expect(t.server.publicUrl).toBe(`http://127.0.0.1:${port}`);
    const reach = await t.api('GET', '/api/settings/reach');
    expect(reach.body).toMatchObject({
      mode: 'plain-http',
      public_base_url: `http://127.0.0.1:${port}`,
      public_listen_url: `http://127.0.0.1:${port}`,
      public_port: port,
      public_host: '127.0.0.1',
      source: 'settings',
      is_restart_needed: false,
      listener_error: null,
    });
    expect(await check()).toMatchObject({ ok: true, url: `http://127.0.0.1:${port}/healthz` });
    expect((await fetch(`http://127.0.0.1:${port}/api/users`)).status).toBe(404);

    // A saved port someone else holds: the office still starts, and the page says why parties cannot.
    await t.close();
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    t = await startTestServer({}, dataDir);
    expect(t.server.publicUrl).toBeUndefined();
    const blocked = (await t.api('GET', '/api/settings/reach')).body;
    expect(blocked.listener_error).toContain(`port ${port}`);
    expect(blocked.listener_error).toContain('EADDRINUSE');

    // null returns to the environment's (none here).
    const cleared = await t.api('PUT', '/api/settings/reach', { body: { public_port: null, public_host: null } });
    expect(cleared.body).toMatchObject({ public_port: null, public_host: '0.0.0.0', source: null });
  });
});
