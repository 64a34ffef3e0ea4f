import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { linkOf, startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

type Status = 'draft' | 'sent' | 'signed' | 'rejected';
type Model = { id: number; name: string; status: Status; user: string };
type Term = { key: 'id' | 'name' | 'is_signed'; desc: boolean };

const parseSort = (sort: string | undefined): Term[] =>
  (sort ?? '-id').split(',').map((term) => ({ key: term.replace('-', '') as Term['key'], desc: term.startsWith('-') }));

/**
 * The documented order: the terms, then the id; ties go in the direction of the name or id
 * term, else of the first term. Names compare case-insensitively.
 */
function comparator(sort: string | undefined): (a: Model, b: Model) => number {
  const terms = parseSort(sort);
  const cut = terms.findIndex((term) => term.key === 'id');
  const used = cut === -1 ? terms : terms.slice(0, cut + 1);
  const anchor = (used.find((term) => term.key !== 'is_signed') ?? used[0])!.desc;
  const keys = cut === -1 ? [...used, { key: 'id' as const, desc: anchor }] : used;
  const value = (row: Model, key: Term['key']) =>
    key === 'id' ? row.id : key === 'name' ? row.name.toLowerCase() : row.status === 'signed' ? 1 : 0;
  return (a, b) => {
    for (const key of keys) {
      const [x, y] = [value(a, key.key), value(b, key.key)];
      if (x !== y) return (x < y ? -1 : 1) * (key.desc ? -1 : 1);
    }
    return 0;
  };
}

describe('GET /api/contracts: pages, sorting and filters', () => {
  let t: TestServer;
  let clerkPath: string;
  const model: Model[] = [];
  let pdf: Uint8Array;

  const create = async (name: string, as?: string) => {
    const headers = as ? { 'api-user-uri': as } : undefined;
    const made = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' }, headers });
    await t.api('PUT', made.body.self, { body: { name }, headers });
    const row: Model = {
      id: Number(made.body.self.split('/').at(-1)),
      name,
      status: 'draft',
      user: made.body.created_by,
    };
    model.push(row);
    return row;
  };
  /** Signing and rejecting belong to the signing flow; until it exists the repository sets the state. */
  const setStatus = async (row: Model, status: Status) => {
    if (status === 'sent') {
      await t.api('POST', `/api/contracts/${row.id}/parties`, { body: { name: 'P', email: 'p@example.se' } });
      expect((await t.api('POST', `/api/contracts/${row.id}/send`)).status).toBe(200);
    } else {
      const repo = t.server.ctx.repos.contracts;
      await repo.changeStatus((await repo.findById(row.id))!, status, {});
    }
    row.status = status;
  };
  const expected = (query: { sort?: string; status?: Status; user?: string; name?: string }) =>
    model
      .filter((row) => !query.status || row.status === query.status)
      .filter((row) => !query.user || row.user === query.user)
      .filter((row) => !query.name || row.name.toLowerCase().includes(query.name.toLowerCase()))
      .sort(comparator(query.sort));
  const idsOf = (body: Array<{ self: string }>) => body.map((contract) => Number(contract.self.split('/').at(-1)));

  beforeAll(async () => {
    t = await startTestServer();
    pdf = await makePdf();
    const clerk = await t.api('POST', '/api/users', { body: { username: 'clerk', email: 'clerk@office.test' } });
    clerkPath = clerk.body.self;
    const names = [
      'alpha',
      'Alpha',
      'beta',
      'Åsa',
      'örn',
      'Zeta',
      '',
      'gamma',
      'ALPHA beta',
      'delta',
      'Beta',
      'epsilon',
    ];
    for (let round = 0; round < 3; round += 1) {
      for (const [index, name] of names.entries()) await create(name, index % 4 === 0 ? clerkPath : undefined);
    }
    const statuses: Status[] = ['signed', 'sent', 'rejected', 'draft', 'signed'];
    for (const [index, row] of model.entries())
      if (index % 3 === 0) await setStatus(row, statuses[index % statuses.length]!);
  });
  afterAll(() => t.close());

  const sorts = [
    undefined,
    'id',
    '-id',
    'name',
    '-name',
    'is_signed',
    '-is_signed',
    'is_signed,name',
    'is_signed,-name',
    '-is_signed,name',
    'name,-is_signed',
    '-name,is_signed',
    'is_signed,-id',
    'name,-id',
  ];

  it.each(sorts)('walks every page of sort=%s in the model order while contracts are added', async (sort) => {
    const query = sort ? `&sort=${sort}` : '';
    let url: string | undefined = `/api/contracts?per_page=7${query}`;
    let last: Model | undefined;
    const compare = comparator(sort);
    for (let page = 1; url; page += 1) {
      const response = await t.api('GET', url);
      expect(response.status).toBe(200);
      const all = expected({ sort });
      const want = (last ? all.filter((row) => compare(row, last!) > 0) : all).slice(0, 7);
      expect(idsOf(response.body)).toEqual(want.map((row) => row.id));
      expect(response.headers.get('pagination-page')).toBe(String(page));
      expect(response.headers.get('pagination-items-total')).toBe(String(all.length));
      expect(response.headers.get('pagination-num-pages')).toBe(String(Math.ceil(all.length / 7)));
      last = want.at(-1);
      // A contract made between two page requests: the walk neither repeats nor skips a row.
      if (page % 2 === 1) await create(page % 4 === 1 ? 'aardvark' : 'zz top');
      url = linkOf(response.headers, 'next');
      expect(url === undefined).toBe(all.filter((row) => compare(row, last!) > 0).length === 0);
    }
  });

  it('walks back with the previous link to the same rows', async () => {
    const first = await t.api('GET', '/api/contracts?per_page=5&sort=-name');
    const second = await t.api('GET', linkOf(first.headers, 'next')!);
    const third = await t.api('GET', linkOf(second.headers, 'next')!);
    const back = await t.api('GET', linkOf(third.headers, 'previous')!);
    expect(idsOf(back.body)).toEqual(idsOf(second.body));
    expect(back.headers.get('pagination-page')).toBe('2');
    const start = await t.api('GET', linkOf(back.headers, 'previous')!);
    expect(idsOf(start.body)).toEqual(idsOf(first.body));
    expect(start.headers.get('pagination-page')).toBe('1');
    expect(linkOf(start.headers, 'previous')).toBeUndefined();
  });

  it.each([
    { status: 'draft' as const },
    { status: 'sent' as const, sort: 'name' },
    { status: 'signed' as const, sort: '-is_signed' },
    { status: 'rejected' as const },
    { user: 'clerk', sort: 'is_signed,name' },
    { user: 'clerk', status: 'draft' as const },
    { name: 'ALP' },
    { name: 'å', sort: 'name' },
    { name: 'beta', status: 'draft' as const, sort: '-name' },
  ])('filters %o', async (filter) => {
    const user = filter.user ? clerkPath : undefined;
    const want = expected({ ...filter, user });
    expect(want.length).toBeGreaterThan(0);
    const params = new URLSearchParams({ per_page: '100' });
    if (filter.status) params.set('status', filter.status);
    if (user) params.set('user', user);
    if (filter.name) params.set('name', filter.name);
    if (filter.sort) params.set('sort', filter.sort);
    const response = await t.api('GET', `/api/contracts?${params.toString()}`);
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual(want.map((row) => row.id));
    expect(response.headers.get('pagination-items-total')).toBe(String(want.length));
  });

  it('counts stay right through sending and deleting', async () => {
    const totals = async () =>
      Object.fromEntries(
        await Promise.all(
          ['', '&status=draft', '&status=sent', `&user=${clerkPath}`, `&user=${clerkPath}&status=draft`].map(
            async (q) => [
              q,
              (await t.api('GET', `/api/contracts?per_page=1${q}`)).headers.get('pagination-items-total'),
            ],
          ),
        ),
      );
    const row = await create('counted', clerkPath);
    const before = await totals();
    await setStatus(row, 'sent');
    const after = await totals();
    expect(Number(after['&status=draft'])).toBe(Number(before['&status=draft']) - 1);
    expect(Number(after['&status=sent'])).toBe(Number(before['&status=sent']) + 1);
    expect(Number(after[`&user=${clerkPath}&status=draft`])).toBe(
      Number(before[`&user=${clerkPath}&status=draft`]) - 1,
    );
    expect(after['']).toBe(before['']);
    const doomed = await create('doomed');
    expect((await t.api('DELETE', `/api/contracts/${doomed.id}`)).status).toBe(204);
    model.splice(model.indexOf(doomed), 1);
    expect((await totals())['']).toBe(after['']);
    const counts = await rawSql(t.server.ctx.db).all('SELECT scope, n FROM contract_counts ORDER BY scope');
    await t.server.ctx.repos.contracts.recount();
    expect(
      await rawSql(t.server.ctx.db).all('SELECT scope, n FROM contract_counts WHERE n > 0 ORDER BY scope'),
    ).toEqual((counts as Array<{ n: number }>).filter((count) => count.n > 0));
  });

  it('refuses bad sort values and filters, one line each', async () => {
    const lines = async (query: string) => {
      const response = await t.api('GET', `/api/contracts?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.type).toMatch(/#validation-failed$/);
      return response.body.validation_errors;
    };
    const sortLine = 'sort: must be a comma-separated list of id, name, is_signed, each optionally prefixed with -';
    expect(await lines('sort=created')).toEqual([sortLine]);
    expect(await lines('sort=name,')).toEqual([sortLine]);
    expect(await lines('sort=--name')).toEqual([sortLine]);
    expect(await lines('sort=name,-name')).toEqual(['sort: must not name a key twice']);
    expect(await lines('status=archived')).toEqual(['status: must be one of draft, sent, signed, rejected']);
    expect(await lines('user=clerk')).toEqual(['user: must be a user path of the form /api/users/<id>']);
    expect(await lines('per_page=0')).toEqual(['per_page: must be at least 1']);
    expect(await lines('per_page=101')).toEqual(['per_page: must be at most 100']);
    expect(await lines('page=bogus')).toEqual(['page: is not a page token of this list; follow the Link header']);
    expect(await lines(`name=${'x'.repeat(1001)}`)).toEqual(['name: must be at most 1000 characters']);
    expect(await lines('colour=red')).toEqual(['colour: unknown field']);
    expect((await lines('sort=size&status=gone&user=0')).sort()).toEqual(
      [
        sortLine,
        'status: must be one of draft, sent, signed, rejected',
        'user: must be a user path of the form /api/users/<id>',
      ].sort(),
    );
    const page = await t.api('GET', '/api/contracts?per_page=2&sort=name');
    const token = new URL(linkOf(page.headers, 'next')!).searchParams.get('page');
    expect(await lines(`sort=-name&page=${token}`)).toEqual([
      'page: is not a page token of this list; follow the Link header',
    ]);
  });

  it('publishes every contract route in a valid OpenAPI 3.1 document', async () => {
    const response = await fetch(`${t.url}/api/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, any> };
    expect(await new Validator().validate(document as never)).toEqual({ valid: true });
    for (const path of [
      '/api/contracts',
      '/api/contracts/{contract_id}/send',
      '/api/contracts/{contract_id}/activity_log',
      '/api/contracts/{contract_id}/attachments/{attachment_id}/preview',
      '/api/contract_templates/{template_id}/pdf_preview',
    ]) {
      expect(Object.keys(document.paths)).toContain(path);
    }
    expect(Object.keys(document.paths['/api/contracts'].post.requestBody.content).sort()).toEqual([
      'application/json',
      'application/pdf',
      'application/x-www-form-urlencoded',
    ]);
  });
});
