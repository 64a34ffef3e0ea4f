import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/** What Node's parser refuses before the app sees it is still a problem response, never a bare status or a cut connection. */
describe('requests too large to read', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers an over-long URL with a 414 problem, and over-large headers with a 400 problem', async () => {
    const long = await fetch(`${t.url}/api/contracts?q=${'x'.repeat(100_000)}`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(long.status).toBe(414);
    expect(long.headers.get('content-type')).toBe('application/problem+json');
    expect(await long.json()).toMatchObject({
      status: 414,
      title: 'URI too long',
      type: `${t.url}/apidoc/v1/posting_data#uri-too-long`,
      detail: expect.stringMatching(/URL is longer/),
    });

    const heavy = await fetch(`${t.url}/api/users`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', cookie: 'c='.padEnd(20_000, 'y') },
    });
    expect(heavy.status).toBe(400);
    expect(await heavy.json()).toMatchObject({
      status: 400,
      type: `${t.url}/apidoc/v1/posting_data#malformed-request`,
    });

    // The server goes on answering.
    expect((await t.api('GET', '/api/users')).status).toBe(200);
  });
});
