import { sqliteOf } from '../../server/db/database';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeysetRequest } from '../../server/db/keyset';
import { contractOrdering, type ContractFilter } from '../../server/db/repos/contracts';
import { createSearchPool } from '../../server/db/search-pool';
import { makePdf } from '../helpers/pdfs';
import { linkOf, makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/** Repeats `step` until the real condition holds (a thread's answer), never a fixed wait. */
async function until(step: () => Promise<unknown>, check: () => boolean): Promise<void> {
  while (!check()) {
    await step();
    // A thread's messages arrive as events: let them in between two steps.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('contract searches on a search thread', () => {
  let t: TestServer;
  const names: string[] = [];
  beforeAll(async () => {
    t = await startTestServer();
    const pdf = await makePdf({ pages: 1 });
    for (let index = 0; index < 7; index += 1) {
      const created = await t.api('POST', `/api/contracts?name=${encodeURIComponent(`Trådavtal ${index}`)}`, {
        raw: { data: pdf, contentType: 'application/pdf' },
      });
      expect(created.status, created.text).toBe(201);
      names.push(created.body.name);
      if (index % 2 === 0) {
        const party = { name: `Åsa Tråd ${index}`, email: `asa${index}@trad.test` };
        expect((await t.api('POST', `${created.body.self}/parties`, { body: party })).status).toBe(201);
      }
    }
  });
  afterAll(() => t?.close());

  /** The whole list of a search, page by page, as an integrator walks it; with each page's total. */
  async function walk(query: string): Promise<{ names: string[]; totals: string[] }> {
    const seen: string[] = [];
    const totals: string[] = [];
    let next: string | undefined = `/api/contracts?per_page=2&${query}`;
    while (next) {
      const page = await t.api('GET', next);
      expect(page.status, page.text).toBe(200);
      seen.push(...page.body.map((row: { name: string }) => row.name));
      totals.push(page.headers.get('pagination-items-total') ?? '');
      next = linkOf(page.headers, 'next');
    }
    return { names: seen, totals };
  }

  /** What the request thread's own repository answers for the same search (the behaviour before threads). */
  async function onRequestThread(filter: ContractFilter): Promise<{ names: string[]; total: number }> {
    const repo = t.server.ctx.repos.contracts;
    const ordering = contractOrdering([{ key: 'name', isDescending: false }], filter);
    const all: string[] = [];
    let request: KeysetRequest = { isBackward: false, limit: 2 };
    for (;;) {
      const page = await repo.listPage(request, filter, ordering);
      all.push(...page.rows.map((row) => row.name ?? ''));
      if (!page.hasMore || !page.lastValues) break;
      request = { isBackward: false, limit: 2, after: page.lastValues };
    }
    return { names: all, total: await repo.total(filter) };
  }

  it('answers the same pages, totals and counts as the request thread, and a thread answered them', async () => {
    // The first search may run on the request thread while the thread starts; wait until it answers.
    await until(
      () => t.api('GET', '/api/contracts?q=tr%C3%A5d'),
      () => t.server.ctx.search.answeredByThreads > 0,
    );
    const before = t.server.ctx.search.answeredByThreads;
    for (const q of ['tråd', 'TRÅD 4', 'asa2@trad', 'Åsa', 'ad', 'x', 'nothing like it']) {
      const listed = await walk(`sort=name&q=${encodeURIComponent(q)}`);
      const expected = await onRequestThread({ q });
      expect(listed.names, q).toEqual(expected.names);
      expect(new Set(listed.totals), q).toEqual(new Set([String(expected.total)]));
      const counts = await t.api('GET', `/api/contract_counts?q=${encodeURIComponent(q)}`);
      expect(counts.status).toBe(200);
      expect(counts.body, q).toEqual(await t.server.ctx.repos.contracts.countByStatus({ q }));
    }
    expect(t.server.ctx.search.answeredByThreads).toBeGreaterThan(before);
  });

  it('finds a contract the moment its creation was answered, and not after its deletion', async () => {
    const pdf = await makePdf({ pages: 1 });
    const created = await t.api('POST', '/api/contracts?name=Nyss%20skapat%20tr%C3%A5davtal', {
      raw: { data: pdf, contentType: 'application/pdf' },
    });
    expect(created.status).toBe(201);
    expect((await walk('q=nyss%20skapat')).names).toEqual(['Nyss skapat trådavtal']);
    expect((await t.api('DELETE', created.body.self)).status).toBe(204);
    expect((await walk('q=nyss%20skapat')).names).toEqual([]);
  });

  it('keeps answering other requests while searches are under way', async () => {
    const searches = Array.from({ length: 12 }, (_, index) =>
      t.api('GET', `/api/contracts?q=${encodeURIComponent(['tråd', 'åsa', 'avtal 3'][index % 3] as string)}`),
    );
    const plain = await t.api('GET', '/api/contract_counts');
    expect(plain.status).toBe(200);
    expect(plain.body.all).toBe(names.length);
    for (const search of await Promise.all(searches)) expect(search.status).toBe(200);
  });
});

describe('a search pool whose thread cannot start', () => {
  it('answers on the request thread, the same as before, and says so once', async () => {
    const t = await startTestServer();
    try {
      const pdf = await makePdf({ pages: 1 });
      await t.api('POST', '/api/contracts?name=Ensamt%20avtal', { raw: { data: pdf, contentType: 'application/pdf' } });
      const missing = path.join(makeTempDir(), 'no-such.sqlite');
      expect(fs.existsSync(missing)).toBe(false);
      const reasons: string[] = [];
      const pool = createSearchPool({
        file: missing,
        db: sqliteOf(t.server.ctx.db),
        size: 1,
        onGiveUp: (reason) => reasons.push(reason),
      });
      const filter = { q: 'ensamt' };
      const expected = await t.server.ctx.repos.contracts.countByStatus(filter);
      await until(
        async () => expect(await pool.counts(filter)).toEqual({ counts: expected, isPartial: false }),
        () => reasons.length > 0,
      );
      const listed = await pool.list({ isBackward: false, limit: 20 }, filter, undefined);
      expect(listed.page.rows.map((row) => row.name)).toEqual(['Ensamt avtal']);
      expect(listed.total).toBe(1);
      expect(reasons).toHaveLength(1);
      expect(pool.answeredByThreads).toBe(0);
      await pool.close();
    } finally {
      await t.close();
    }
  });
});
