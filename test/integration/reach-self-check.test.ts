import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A forwarder in front of SignDesk, as a proxy, a tunnel or a router forward would be:
 * requests whose path `toOffice` picks go to the office port, all others to `party`.
 */
async function startForwarder(party: number, office: number, toOffice: (path: string) => boolean) {
  const server = http.createServer((req, res) => {
    const port = toOffice(req.url ?? '/') ? office : party;
    const upstream = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent: false },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the self-check tells the party listener from the office port (PUBLIC_PORT set)', () => {
  let t: TestServer;
  let partyPort: number;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    t = await startTestServer({ publicPort: 0, publicHost: '127.0.0.1' });
    partyPort = Number(new URL(t.server.publicUrl!).port);
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

  it('names its listener in the health answer', async () => {
    const party = await rawRequest(partyPort, 'GET', '/healthz');
    expect(JSON.parse(party.body)).toMatchObject({ status: 'ok', surface: 'party' });
    const office = await rawRequest(t.server.port, 'GET', '/healthz');
    expect(JSON.parse(office.body)).toMatchObject({ status: 'ok', surface: 'office' });
  });

  it("names the party base in the problem answers of the party port, never the office's address", async () => {
    const office = `127.0.0.1:${t.server.port}`;
    // Refused by the app (Express): a check that is not a PDF.
    const media = await rawRequest(partyPort, 'POST', '/verify/check', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(media.status).toBe(415);
    expect(JSON.parse(media.body).type).toMatch(new RegExp(`^${t.server.publicUrl}/apidoc/v1/`));
    // Refused by Node's parser before the app: a URL past 16 KiB.
    const long = await rawRequest(partyPort, 'GET', `/sign/${'a'.repeat(20_000)}`);
    expect(long.status).toBe(414);
    expect(JSON.parse(long.body).type).toMatch(new RegExp(`^${t.server.publicUrl}/apidoc/v1/`));
    for (const answer of [media, long]) expect(answer.body).not.toContain(office);
    // On the office port the same refusals name the office's base: the checks above can fail.
    const officeMedia = await rawRequest(t.server.port, 'POST', '/verify/check', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(JSON.parse(officeMedia.body).type).toMatch(new RegExp(`^${t.url}/apidoc/v1/`));
  });

  it('approves the party listener, where no office path answers', async () => {
    expect(await check()).toMatchObject({
      ok: true,
      url: `${t.server.publicUrl}/healthz`,
      failed_stage: null,
      surface: 'party',
      office_paths: [],
      status: 200,
    });
  });

  it('fails when the public address leads to the office port, naming what answers there', async () => {
    // The review's repro: the proxy (here left out: the address itself) forwards the office port.
    await pointLinksAt(t.url);
    const found = await check();
    expect(found).toMatchObject({ ok: false, failed_stage: 'exposed', surface: 'office', status: 200 });
    expect(found.office_paths).toEqual(['/admin/', '/apidoc/v1/', '/api/openapi.json', '/api/users']);
    expect(found.error).toContain('leads to the office port (PORT), not the party listener');

    const forwarder = await startForwarder(partyPort, t.server.port, () => true);
    closers.push(forwarder.close);
    await pointLinksAt(forwarder.url);
    expect(await check()).toMatchObject({ ok: false, failed_stage: 'exposed', surface: 'office' });
  });

  it('fails when the party listener answers but office paths are sent to the office port', async () => {
    // A proxy whose rules send /admin and /api (but not /healthz) to the office port.
    const forwarder = await startForwarder(partyPort, t.server.port, (path) => /^\/(admin|api)\b/.test(path));
    closers.push(forwarder.close);
    await pointLinksAt(forwarder.url);
    const found = await check();
    expect(found).toMatchObject({ ok: false, failed_stage: 'exposed', surface: 'party' });
    expect(found.office_paths).toEqual(['/admin/', '/api/openapi.json', '/api/users']);
    expect(found.error).toContain('sends them to the office port');
  });

  it('does not connect where the outbound address policy forbids it (cloud metadata, odd spellings)', async () => {
    await pointLinksAt('http://169.254.169.254');
    const metadata = await check();
    expect(metadata).toMatchObject({ ok: false, failed_stage: 'address', status: null });
    expect(metadata.error).toContain('outbound address policy');
    expect(metadata.duration_ms).toBeLessThan(4_000);
    // 2130706433 is 127.0.0.1 spelled as one number: refused as the policy refuses it elsewhere.
    await pointLinksAt(`http://2130706433:${partyPort}`);
    expect(await check()).toMatchObject({ ok: false, failed_stage: 'address' });
  });
});
