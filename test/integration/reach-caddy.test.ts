import net from 'node:net';
import tls from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCaddy, type CaddyProxy } from '../helpers/caddy';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';

/**
 * The recipe of docs/reach.md, "Caddy in front": Caddy terminates HTTPS (`tls internal` here,
 * a public certificate in real life) and proxies to the party listener; SignDesk trusts
 * Caddy's address (TRUSTED_PROXIES=127.0.0.1). The party's browser is on 127.0.0.2, so the
 * audit trail must say 127.0.0.2, never Caddy's 127.0.0.1 nor what the client claims.
 */
describe('a party signs through Caddy in front of the party surface', () => {
  let t: TestServer;
  let caddy: CaddyProxy;
  let partyFetch: typeof fetch;
  let dispatcher: Agent | undefined;
  beforeAll(async () => {
    t = await startTestServer({ trustedProxies: ['127.0.0.1'], publicPort: 0, publicHost: '127.0.0.1' });
    caddy = await startCaddy(new URL(t.server.publicUrl!).host);
    const ca = caddy.rootCertificate();
    // undici's own connector takes no local address: this one connects from 127.0.0.2.
    dispatcher = new Agent({
      connect: (options, done) => {
        const socket = tls.connect({
          socket: net.connect({ host: options.hostname, port: Number(options.port), localAddress: '127.0.0.2' }),
          // The name the certificate is checked against.
          host: options.hostname,
          ca,
        });
        socket.once('secureConnect', () => done(null, socket));
        socket.once('error', (error) => done(error, null));
      },
    });
    partyFetch = ((url: string, init?: RequestInit) =>
      undiciFetch(url, { ...(init as object), dispatcher: dispatcher! })) as unknown as typeof fetch;
    // The office points its links at the proxy's address, as the settings page does.
    const changed = await t.api('PUT', '/api/settings/general', { body: { public_base_url: caddy.url } });
    expect(changed.status, changed.text).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await dispatcher?.close();
    await caddy?.close();
    await t?.close();
  });

  it("signs over HTTPS, and the activity log holds the party's own address", async () => {
    const contract = await makeContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    const party = contract.parties[0]!;
    expect(party.contract_url.startsWith(`${caddy.url}/sign/`)).toBe(true);

    // The client claims another address; Caddy replaces the claim by what it saw.
    const client = signingClient(party.contract_url, {
      fetch: partyFetch,
      headers: { 'x-forwarded-for': '6.6.6.6' },
    });
    const page = await client.open();
    expect(page.status).toBe(200);
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
    expect((await client.state()).body.stage).toBe('ready');
    expect((await client.document()).headers.get('content-type')).toBe('application/pdf');
    const accepted = await client.accept({}, 'Åsa Öberg');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.stage).toBe('completed');

    const log = await t.api('GET', `${contract.self}/activity_log?per_page=100`);
    const entries = (log.body as Array<{ event: string; actor: string; ip_address: string }>).filter(
      (entry) => entry.actor === party.self,
    );
    expect(entries.map((entry) => entry.event)).toEqual(expect.arrayContaining(['party.opened']));
    expect(entries.length).toBeGreaterThanOrEqual(2);
    for (const entry of entries) expect(entry.ip_address, JSON.stringify(entries)).toBe('127.0.0.2');
  });

  it('shows nothing of the office through the proxy', async () => {
    for (const target of ['/api/users', '/admin/', '/apidoc/v1/', '/api/openapi.json']) {
      const answer = await partyFetch(`${caddy.url}${target}`);
      expect(answer.status, target).toBe(404);
      expect(answer.headers.get('set-cookie'), target).toBeNull();
    }
    expect((await partyFetch(`${caddy.url}/healthz`)).status).toBe(200);
  });
});
