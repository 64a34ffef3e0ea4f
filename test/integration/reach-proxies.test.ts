import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';

type Entry = { event: string; actor: string; ip_address: string };

/** The party's own entries in the contract's activity log, as an integrator reads them. */
async function partyEntries(t: TestServer, contract: string, party: string): Promise<Entry[]> {
  const log = await t.api('GET', `${contract}/activity_log?per_page=100`);
  expect(log.status).toBe(200);
  return (log.body as Entry[]).filter((entry) => entry.actor === party);
}

/** A party opens and signs its link with these headers; returns its entries in the log. */
async function signWith(t: TestServer, base: string, headers: Record<string, string>): Promise<Entry[]> {
  const contract = await makeContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
  expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
  const party = contract.parties[0]!;
  const link = new URL(new URL(party.contract_url).pathname, base).toString();
  const client = signingClient(link, { headers });
  expect((await client.open()).status).toBe(200);
  expect((await client.state()).body.stage).toBe('ready');
  const accepted = await client.accept({}, 'Åsa Öberg');
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const entries = await partyEntries(t, contract.self, party.self);
  expect(entries.map((entry) => entry.event)).toEqual(expect.arrayContaining(['party.opened']));
  return entries;
}

const signIn = (t: TestServer, headers: Record<string, string>, password: string) =>
  fetch(`${t.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-api-version': '1', ...headers },
    body: JSON.stringify({ username: 'admin', password }),
  });

describe('forwarding headers from a peer that is not a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    // Proxies are trusted, but not this one: the test client is 127.0.0.1.
    t = await startTestServer({
      trustedProxies: ['10.0.0.0/8', 'fd00::/8'],
      publicPort: 0,
      publicHost: '127.0.0.1',
    });
  });
  afterAll(() => t.close());

  it('records the TCP peer, not X-Forwarded-For, on both surfaces', async () => {
    const forged = {
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
    };
    for (const base of [t.server.publicUrl!, t.url]) {
      const entries = await signWith(t, base, forged);
      expect(entries.length).toBeGreaterThanOrEqual(2);
      for (const entry of entries) expect(entry.ip_address).toBe('127.0.0.1');
    }
  });

  it('neither marks the session cookie Secure nor sends HSTS on a forged X-Forwarded-Proto', async () => {
    const answer = await signIn(t, { 'x-forwarded-proto': 'https' }, 'correct horse');
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toMatch(/^signdesk_session=/);
    expect(answer.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
    expect(answer.headers.get('strict-transport-security')).toBeNull();
  });

  it('does not let a forged X-Forwarded-For escape the sign-in throttle', async () => {
    for (let guess = 0; guess < 5; guess += 1) {
      const wrong = await signIn(t, { 'x-forwarded-for': `203.0.113.${guess + 1}` }, 'wrong guess');
      expect(wrong.status).toBe(401);
    }
    expect((await signIn(t, { 'x-forwarded-for': '203.0.113.99' }, 'wrong guess')).status).toBe(429);
  });
});

describe('forwarding headers from a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ trustedProxies: ['127.0.0.1', '::1'], publicPort: 0, publicHost: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it("records the client's address, walking X-Forwarded-For from the right past trusted hops", async () => {
    // The client forged the first entry; the proxy appended the address it saw.
    const throughOne = await signWith(t, t.server.publicUrl!, { 'x-forwarded-for': '6.6.6.6, 203.0.113.7' });
    for (const entry of throughOne) expect(entry.ip_address).toBe('203.0.113.7');
    // Two trusted hops (127.0.0.1 appended by the inner proxy) are skipped.
    const throughTwo = await signWith(t, t.url, { 'x-forwarded-for': '2001:db8::7, 127.0.0.1' });
    for (const entry of throughTwo) expect(entry.ip_address).toBe('2001:db8::7');
    // No header: the peer itself.
    const direct = await signWith(t, t.server.publicUrl!, {});
    for (const entry of direct) expect(entry.ip_address).toBe('127.0.0.1');
  });

  it('builds no link from X-Forwarded-Host or Host, even from the trusted proxy', async () => {
    const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    const contract = await makeContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    const sent = await t.api('POST', `${contract.self}/send`, { headers: forged });
    expect(sent.status).toBe(200);
    const party = await t.api('GET', contract.parties[0]!.self, { headers: forged });
    expect(party.body.contract_url.startsWith(`${t.server.publicUrl}/sign/`)).toBe(true);
    const page = await t.api('GET', '/api/contracts?per_page=1', { headers: forged });
    expect(page.text).not.toContain('evil.example');
    expect(page.headers.get('link') ?? '').not.toContain('evil.example');
  });

  it('marks the cookie Secure and sends HSTS when the proxy says the client used HTTPS', async () => {
    const secure = await signIn(
      t,
      { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.30' },
      'correct horse',
    );
    expect(secure.status).toBe(201);
    expect(secure.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const plain = await signIn(t, { 'x-forwarded-for': '203.0.113.31' }, 'correct horse');
    expect(plain.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });

  it('throttles sign-in per real client: one guessing does not lock out another', async () => {
    for (let guess = 0; guess < 5; guess += 1) {
      expect((await signIn(t, { 'x-forwarded-for': '203.0.113.40' }, 'wrong guess')).status).toBe(401);
    }
    expect((await signIn(t, { 'x-forwarded-for': '203.0.113.40' }, 'wrong guess')).status).toBe(429);
    expect((await signIn(t, { 'x-forwarded-for': '203.0.113.41' }, 'correct horse')).status).toBe(201);
  });

  it('still keeps office paths off the party surface, whatever the proxy headers say', async () => {
    const port = Number(new URL(t.server.publicUrl!).port);
    const disguises: Array<Record<string, string>> = [
      { 'x-forwarded-host': '127.0.0.1', 'x-forwarded-prefix': '/api' },
      { 'x-original-url': '/api/users', 'x-rewrite-url': '/api/users' },
    ];
    for (const headers of disguises) {
      const answer = await rawRequest(port, 'GET', '/api/users', { headers });
      expect(answer.status).toBe(404);
      expect((await rawRequest(port, 'GET', '/sign/x', { headers: { ...headers } })).status).toBe(404);
    }
  });
});
