import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContract } from '../helpers/signing';
import { startTestServer, type TestServer } from '../helpers/server';

type LogLine = Record<string, unknown>;

/**
 * Every request has its line in the server's log, found by the `Request-Id` its answer carried
 * (an integrator's "this call failed" quotes it), on the office listener and on the party
 * listener alike; no line holds a party's link token, an API key or a query string.
 */
describe('access log', () => {
  let t: TestServer;
  let token: string;
  const logText = () => fs.readFileSync(path.join(t.dataDir, 'logs', 'signdesk.log'), 'utf8');
  const lines = () =>
    logText()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as LogLine);

  /** The log's line for the request whose answer carried this Request-Id (written after the answer). */
  const lineOf = async (response: Response): Promise<LogLine> => {
    await response.arrayBuffer();
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => lines().filter((line) => line.requestId === requestId).length).toBe(1);
    return lines().find((line) => line.requestId === requestId) as LogLine;
  };

  beforeAll(async () => {
    t = await startTestServer({ logLevel: 'info', publicPort: 0, publicHost: '127.0.0.1' });
    const contract = await makeContract(t, [{ name: 'Eva', email: 'eva@example.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    token = new URL(contract.parties[0]!.contract_url).pathname.split('/')[2]!;
    expect(token.length).toBeGreaterThan(20);
  });
  afterAll(() => t.close());

  const api = (pathname: string, key: string | null = t.adminKey) =>
    fetch(`${t.url}${pathname}`, {
      headers: { 'accept-api-version': '1', ...(key === null ? {} : { authorization: `token ${key}` }) },
    });

  it('writes a line per request that its Request-Id finds: a 200, a 404 and a 401, at info level', async () => {
    const ok = await lineOf(await api('/api/users/1'));
    expect(ok).toMatchObject({ level: 30, msg: 'request', method: 'GET', path: '/api/users/1', status: 200 });
    // Who called: the acting user and the token (its id, never the key).
    expect(ok).toMatchObject({ userId: 1, tokenId: expect.any(Number) });
    expect(ok.ms).toEqual(expect.any(Number));

    expect(await lineOf(await api('/api/contracts/999999'))).toMatchObject({
      msg: 'request',
      path: '/api/contracts/999999',
      status: 404,
    });
    const unauthorized = await lineOf(await api('/api/contracts', 'nobody:wrong'));
    expect(unauthorized).toMatchObject({ msg: 'request', path: '/api/contracts', status: 401 });
    expect(unauthorized).not.toHaveProperty('tokenId');
    // Pages have theirs too; a path as long as a client likes is cut short.
    expect(await lineOf(await fetch(`${t.url}/apidoc/v1/`))).toMatchObject({ path: '/apidoc/v1/', status: 200 });
    const long = await lineOf(await fetch(`${t.url}/admin/${'a'.repeat(8_000)}`));
    expect(long.path).toBe(`/admin/${'a'.repeat(293)}`);
  });

  it("logs the party listener's requests as the party's, without the link's token", async () => {
    const publicUrl = t.server.publicUrl!;
    const page = await lineOf(await fetch(`${publicUrl}/sign/${token}?return_url=https%3A%2F%2Fx.test%2F`));
    // 200 with the built signing page, 503 without dist/: either way its line names no token.
    expect(page).toMatchObject({ path: '/sign/…', surface: 'party' });
    expect(await lineOf(await fetch(`${publicUrl}/sign/${token}/state`))).toMatchObject({
      path: '/sign/…/state',
      status: 200,
      surface: 'party',
    });
    expect(await lineOf(await fetch(`${publicUrl}/sign/${token}x/state`))).toMatchObject({ status: 404 });
    // The office listener serves the same links, in any case Express matches them.
    expect(await lineOf(await fetch(`${t.url}/sign/${token}/state`))).toMatchObject({ path: '/sign/…/state' });
    const upper = await lineOf(await fetch(`${t.url}/SIGN/${token}/state`));
    expect(upper).toMatchObject({ path: '/SIGN/…/state', status: 200 });
    expect(upper).not.toHaveProperty('surface');
    expect(logText()).not.toContain(token.slice(0, 20));
    expect(logText()).not.toContain('x.test');
  });

  it('never logs an API key, in the header or in a query string', async () => {
    const [publicId, secret] = t.adminKey.split(':') as [string, string];
    const inQuery = await lineOf(await api(`/api/contracts?api_key=${encodeURIComponent(t.adminKey)}`, null));
    expect(inQuery).toMatchObject({ path: '/api/contracts', status: 401 });
    const inHeader = await lineOf(await api('/api/contracts?per_page=1'));
    expect(inHeader).toMatchObject({ path: '/api/contracts', status: 200 });
    expect(logText()).not.toContain(secret);
    expect(logText()).not.toContain(publicId);
    expect(logText()).not.toContain('per_page');
  });
});
