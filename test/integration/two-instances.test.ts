import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSql } from '../../server/db/raw-sql';
import { planAnchorAtStart } from '../../server/evidence/anchors/anchor-queue';
import { planArchiveRenewalCheck } from '../../server/evidence/ltv/archive-renewal';
import { testBackend } from '../helpers/databases';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Two instances of one office (issue 38). On PostgreSQL that is the point: they share the
 * database, and what one changes the other sees within a second, whichever a load balancer
 * sends a request to. On SQLite a second instance over the same DATA_DIR is refused: one
 * writer owns the file.
 */
describe('two instances of one office', () => {
  let a: TestServer;
  beforeAll(async () => {
    a = await startTestServer();
  });
  afterAll(async () => {
    await a?.close();
  });

  it(
    testBackend() === 'postgres'
      ? 'share the office, its settings and the admin sessions on one PostgreSQL'
      : 'cannot both serve one SQLite DATA_DIR',
    async () => {
      if (testBackend() === 'sqlite') {
        await expect(startTestServer({}, a.dataDir)).rejects.toThrow(/DATA_DIR|in use|another/i);
        expect((await a.api('GET', '/api/settings/general')).status).toBe(200);
        return;
      }
      const b = await startTestServer({ database: a.server.ctx.config.database });
      try {
        // Both read the office row (each keeps a copy for speed): a change on one is seen on the other within a second.
        expect((await b.api('GET', '/api/settings/general')).body.office_name).toBe('');
        const renamed = await a.api('PUT', '/api/settings/general', { body: { office_name: 'Byrå Två AB' } });
        expect(renamed.status).toBe(200);
        await expect
          .poll(async () => (await b.api('GET', '/api/settings/general')).body.office_name, { timeout: 5_000 })
          .toBe('Byrå Två AB');

        // Signed in on one, working on the other, signed out on the other: the session is gone on both.
        const signIn = await fetch(new URL('/api/session', a.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'accept-api-version': '1' },
          body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
        });
        expect(signIn.status).toBe(201);
        const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] as string;
        const { csrf_token: csrf } = (await signIn.json()) as { csrf_token: string };
        const session = (base: string, method = 'GET') =>
          fetch(new URL('/api/session', base), {
            method,
            headers: { cookie, 'accept-api-version': '1', 'x-signdesk-csrf': csrf },
          });
        const onB = await session(b.url);
        expect(onB.status).toBe(200);
        expect(((await onB.json()) as { office: { name: string } }).office.name).toBe('Byrå Två AB');
        expect((await session(b.url, 'DELETE')).status).toBe(204);
        expect((await session(a.url)).status).toBe(401);
      } finally {
        await b.close();
      }
    },
  );

  it('starting together, queue one office anchor and one archive check between them', async () => {
    // What each instance does at its start, by several at once against the one database.
    const { ctx } = a.server;
    const sql = rawSql(ctx.db);
    await sql.run("DELETE FROM jobs WHERE queue IN ('anchor', 'archive-renewal')");
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        await planAnchorAtStart(ctx);
        await planArchiveRenewalCheck(ctx);
      }),
    );
    const jobs = await sql.all<{ queue: string; n: number }>(
      "SELECT queue, count(*) AS n FROM jobs WHERE queue IN ('anchor', 'archive-renewal') GROUP BY queue ORDER BY queue",
    );
    expect(jobs.map(({ queue, n }) => [queue, Number(n)])).toEqual([
      ['anchor', 1],
      ['archive-renewal', 1],
    ]);
  });
});
