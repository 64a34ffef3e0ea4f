import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { rawSql } from '../../server/db/raw-sql';
import { testBackend, testPostgresUrl } from '../helpers/databases';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * /healthz as a load balancer in front of several instances asks it (issue 38): which instance
 * answered, on which listener; on the office listener, which storage engine; and 503 while the
 * database does not answer, so that the balancer sends parties and staff to another instance.
 */
describe('the health check', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ publicPort: 0, publicHost: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const health = async (base: string) => {
    const response = await fetch(`${base}/healthz`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('names the instance on both listeners and the storage engine on the office one only', async () => {
    const office = await health(t.server.url);
    expect(office).toEqual({
      status: 200,
      body: { status: 'ok', instance: expect.any(String), surface: 'office', backend: testBackend() },
    });
    const party = await health(t.server.publicUrl as string);
    expect(party).toEqual({
      status: 200,
      body: { status: 'ok', instance: office.body.instance, surface: 'party' },
    });
  });

  it('answers 503 while PostgreSQL refuses the instance, and 200 again once it is back', async () => {
    if (testBackend() === 'sqlite') {
      // SQLite is a file of this very process: no database to lose while the process answers.
      expect((await health(t.server.url)).status).toBe(200);
      return;
    }
    const [row] = await rawSql(t.server.ctx.db).all<{ name: string }>('SELECT current_database() AS name');
    const name = row?.name as string;
    const admin = new pg.Client({ connectionString: testPostgresUrl() });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
      for (const base of [t.server.url, t.server.publicUrl as string])
        await expect.poll(async () => (await health(base)).body.status).toBe('unavailable');
      expect((await health(t.server.url)).status).toBe(503);
    } finally {
      await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await expect.poll(async () => (await health(t.server.url)).status).toBe(200);
    expect((await t.api('GET', '/api/contracts')).status).toBe(200);
  });
});
