import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, cli, startTestServer, type TestServer } from '../helpers/server';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('per-token rate limit', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('gives 30 requests a minute by default and answers the 31st with 429 and the headers', async () => {
    const made = await cli(t.dataDir, ['token', 'create', '--name', 'default limited']);
    const api = apiClient(t.url, made.out.at(-1) as string);
    for (let i = 1; i <= 30; i += 1) {
      const response = await api('GET', '/api/contract_templates');
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('30');
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(30 - i));
      if (i < 30) expect(response.headers.get('x-ratelimit-reset')).toBeNull();
      else expect(response.headers.get('x-ratelimit-reset')).toMatch(TIMESTAMP);
    }
    const refused = await api('GET', '/api/contract_templates');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body.type).toMatch(/posting_data#rate-limited$/);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('30');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toMatch(TIMESTAMP);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts per token: another token is not affected', async () => {
    const a = apiClient(
      t.url,
      (await cli(t.dataDir, ['token', 'create', '--name', 'a', '--rate-limit', '2'])).out.at(-1) as string,
    );
    const b = apiClient(
      t.url,
      (await cli(t.dataDir, ['token', 'create', '--name', 'b', '--rate-limit', '2'])).out.at(-1) as string,
    );
    await a('GET', '/api/users/1');
    await a('GET', '/api/users/1');
    expect((await a('GET', '/api/users/1')).status).toBe(429);
    expect((await b('GET', '/api/users/1')).status).toBe(200);
  });

  it('counts requests that fail, and carries the headers on errors', async () => {
    const api = apiClient(
      t.url,
      (await cli(t.dataDir, ['token', 'create', '--name', 'c', '--rate-limit', '3'])).out.at(-1) as string,
    );
    const missing = await api('GET', '/api/users/4242');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('2');
    const badVersion = await api('GET', '/api/users/1', { version: '7' });
    expect(badVersion.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('follows the office default set through the partner API', async () => {
    const partner = apiClient(
      t.url,
      (await cli(t.dataDir, ['token', 'create', '--name', 'p', '--kind', 'partner', '--rate-limit', '100'])).out.at(
        -1,
      ) as string,
    );
    const updated = await partner('PUT', '/api/partner/customer', { body: { default_rate_limit: 5 } });
    expect(updated.body.default_rate_limit).toBe(5);
    const api = apiClient(t.url, (await cli(t.dataDir, ['token', 'create', '--name', 'd'])).out.at(-1) as string);
    expect((await api('GET', '/api/users/1')).headers.get('x-ratelimit-limit')).toBe('5');
    await partner('PUT', '/api/partner/customer', { body: { default_rate_limit: 30 } });
  });
});
