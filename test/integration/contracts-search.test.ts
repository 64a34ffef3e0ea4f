import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { makePdf } from '../helpers/pdfs';
import { linkOf, startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type MadeUser } from '../helpers/users';

type Made = { self: string; name: string; parties: Array<{ name: string; email: string }>; status: 'draft' | 'sent' };

describe('contract search (q) and the counts per status', () => {
  let t: TestServer;
  let clerk: MadeUser;
  const made: Made[] = [];
  beforeAll(async () => {
    t = await startTestServer();
    clerk = await makeUser(t, 'search-clerk');
    const pdf = await makePdf({ pages: 1 });
    const specs: Array<Omit<Made, 'self'> & { asClerk?: boolean }> = [
      { name: 'Hyresavtal Storgatan', parties: [{ name: 'Åsa Öberg', email: 'asa@oberg.test' }], status: 'sent' },
      {
        name: 'Konsultavtal',
        parties: [
          { name: 'Bo Ek', email: 'bo@ek.test' },
          { name: 'Åke Berg', email: 'ake@firma.test' },
        ],
        status: 'draft',
      },
      { name: 'Sekretessavtal Öberg', parties: [], status: 'draft' },
      {
        name: 'Arbetsavtal',
        parties: [{ name: 'Cecilia Ström', email: 'CECILIA@STROM.TEST' }],
        status: 'sent',
        asClerk: true,
      },
      {
        name: 'Köpeavtal',
        parties: [{ name: 'David Lund', email: 'david@lund.test' }],
        status: 'draft',
        asClerk: true,
      },
    ];
    for (let round = 0; round < 3; round += 1) {
      for (const spec of specs) {
        const api = spec.asClerk ? clerk.api : t.api;
        const contract = await api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } });
        const name = `${spec.name} ${round}`;
        await api('PUT', contract.body.self, { body: { name } });
        for (const party of spec.parties) await api('POST', `${contract.body.self}/parties`, { body: party });
        if (spec.status === 'sent')
          expect((await api('POST', `${contract.body.self}/send`, { body: { silent: true } })).status).toBe(200);
        made.push({ self: contract.body.self, name, parties: spec.parties, status: spec.status });
      }
    }
  });
  afterAll(() => t?.close());

  /** Every page of a list, following the Link header; with each page's total. */
  async function walk(query: string, perPage = 2): Promise<{ selves: string[]; totals: string[] }> {
    const selves: string[] = [];
    const totals: string[] = [];
    let next: string | undefined = `/api/contracts?per_page=${perPage}&${query}`;
    while (next) {
      const page = await t.api('GET', next);
      expect(page.status, page.text).toBe(200);
      selves.push(...page.body.map((row: { self: string }) => row.self));
      totals.push(page.headers.get('pagination-items-total') ?? '');
      next = linkOf(page.headers, 'next');
    }
    return { selves, totals };
  }
  const matching = (text: string) => {
    const folded = text.toLowerCase();
    return made
      .filter(
        (row) =>
          row.name.toLowerCase().includes(folded) ||
          row.parties.some((party) =>
            `${party.name}\n${party.email}`
              .toLowerCase()
              .split('\n')
              .some((value) => value.includes(folded)),
          ),
      )
      .map((row) => row.self)
      .reverse();
  };

  it('finds contracts by their name, a party’s name or a party’s e-mail, case-insensitively, page by page', async () => {
    for (const text of ['öberg', 'ÅSA', 'åke', 'cecilia@strom', 'ek.test', 'avtal 1', 'nobody at all']) {
      const { selves, totals } = await walk(`q=${encodeURIComponent(text)}`);
      const expected = matching(text);
      expect(selves, text).toEqual(expected);
      expect(new Set(totals), text).toEqual(new Set([String(expected.length)]));
    }
    // The name filter keeps its meaning (the contract's name only) and combines with q and status.
    expect((await walk(`name=${encodeURIComponent('öberg')}`)).selves).toEqual(
      made
        .filter((row) => row.name.includes('Öberg'))
        .map((row) => row.self)
        .reverse(),
    );
    const sentAsa = await walk('q=%C3%A5sa&status=sent');
    expect(sentAsa.selves).toEqual(
      matching('åsa').filter((self) => made.find((row) => row.self === self)?.status === 'sent'),
    );
  });

  it('counts the contracts under each status, with the other filters applied, and only their own for an ordinary user', async () => {
    const count = (rows: Made[]) => ({
      all: rows.length,
      draft: rows.filter((row) => row.status === 'draft').length,
      sent: rows.filter((row) => row.status === 'sent').length,
      signed: 0,
      rejected: 0,
    });
    const all = await t.api('GET', '/api/contract_counts');
    expect(all.body).toEqual(count(made));
    const list = await t.api('GET', '/api/contracts?status=draft');
    expect(list.headers.get('pagination-items-total')).toBe(String(all.body.draft));
    const searched = await t.api('GET', '/api/contract_counts?q=%C3%B6berg');
    expect(searched.body).toEqual(count(made.filter((row) => matching('öberg').includes(row.self))));
    const byUser = await t.api('GET', `/api/contract_counts?user=${encodeURIComponent(clerk.path)}`);
    const clerksOwn = made.filter((row) => /Arbetsavtal|Köpeavtal/.test(row.name));
    expect(byUser.body).toEqual(count(clerksOwn));

    expect((await clerk.api('GET', '/api/contract_counts')).body).toEqual(count(clerksOwn));
    expect((await clerk.api('GET', '/api/contract_counts?q=cecilia')).body).toEqual(
      count(clerksOwn.filter((row) => row.name.startsWith('Arbetsavtal'))),
    );
    expect((await clerk.api('GET', `/api/contract_counts?user=${encodeURIComponent(t.adminPath)}`)).body).toEqual(
      count([]),
    );
  });

  it('refuses bad search and count parameters', async () => {
    expectProblem(await t.api('GET', `/api/contracts?q=${'x'.repeat(1_001)}`), 400, 'validation-failed');
    expectProblem(await t.api('GET', '/api/contract_counts?status=sent'), 400, 'validation-failed');
    expectProblem(await t.api('GET', '/api/contract_counts?user=alice'), 400, 'validation-failed');
    expectProblem(await t.api('GET', `/api/contract_counts?q=${'x'.repeat(1_001)}`), 400, 'validation-failed');
    const page = await t.api('GET', '/api/contracts?q=avtal&per_page=2');
    const next = linkOf(page.headers, 'next') as string;
    // A page token belongs to its ordering; the search is part of the query it keeps.
    expect(new URL(next).searchParams.get('q')).toBe('avtal');
    expectProblem(await t.api('GET', `${next}&sort=name`), 400, 'validation-failed');
  });
});
