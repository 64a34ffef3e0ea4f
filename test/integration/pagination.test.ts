import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkOf, startTestServer, type TestServer } from '../helpers/server';

describe('keyset pagination', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    for (let i = 0; i < 23; i += 1) await t.api('POST', '/api/contract_templates', { body: { name: `T${i}` } });
  });
  afterAll(() => t.close());

  it('pages 10 by default, newest first, with the headers', async () => {
    const first = await t.api('GET', '/api/contract_templates');
    expect(first.body).toHaveLength(10);
    expect(first.body[0].name).toBe('T22');
    expect(first.headers.get('pagination-page')).toBe('1');
    expect(first.headers.get('pagination-items-total')).toBe('23');
    expect(first.headers.get('pagination-num-pages')).toBe('3');
    expect(linkOf(first.headers, 'previous')).toBeUndefined();
    expect(linkOf(first.headers, 'next')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/contract_templates\?page=/);
  });

  it('walks to the end with the totals right while rows are inserted between requests', async () => {
    const before = await t.api('GET', '/api/contract_templates?per_page=100');
    const existing: string[] = before.body.map((row: { self: string }) => row.self);
    const seen: string[] = [];
    let url: string | undefined = '/api/contract_templates?per_page=4';
    let pageNumber = 0;
    let inserted = 0;
    while (url) {
      const response = await t.api('GET', url);
      pageNumber += 1;
      expect(response.status).toBe(200);
      expect(response.headers.get('pagination-page')).toBe(String(pageNumber));
      const total = existing.length + inserted;
      expect(response.headers.get('pagination-items-total')).toBe(String(total));
      expect(response.headers.get('pagination-num-pages')).toBe(String(Math.ceil(total / 4)));
      expect(
        new URL(response.headers.get('link')?.match(/<([^>]+)>/)?.[1] ?? 'http://x/?per_page=4').searchParams.get(
          'per_page',
        ),
      ).toBe('4');
      seen.push(...response.body.map((row: { self: string }) => row.self));
      await t.api('POST', '/api/contract_templates', { body: { name: `inserted ${inserted}` } });
      inserted += 1;
      url = linkOf(response.headers, 'next');
    }
    expect(seen).toEqual(existing);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('walks back with previous links to page 1', async () => {
    let response = await t.api('GET', '/api/contract_templates?per_page=5');
    const firstPage = response.body.map((row: { self: string }) => row.self);
    response = await t.api('GET', linkOf(response.headers, 'next') as string);
    response = await t.api('GET', linkOf(response.headers, 'next') as string);
    expect(response.headers.get('pagination-page')).toBe('3');
    response = await t.api('GET', linkOf(response.headers, 'previous') as string);
    expect(response.headers.get('pagination-page')).toBe('2');
    response = await t.api('GET', linkOf(response.headers, 'previous') as string);
    expect(response.headers.get('pagination-page')).toBe('1');
    expect(response.body.map((row: { self: string }) => row.self)).toEqual(firstPage);
    expect(linkOf(response.headers, 'previous')).toBeUndefined();
  });

  it('refuses a forged page token, a token of another list and a bad per_page', async () => {
    for (const page of ['garbage', Buffer.from('{"p":1}').toString('base64url')]) {
      const response = await t.api('GET', `/api/contract_templates?page=${page}`);
      expect(response.status).toBe(400);
      expect(response.body.validation_errors).toEqual([
        'page: is not a page token of this list; follow the Link header',
      ]);
    }
    const users = await t.api('GET', '/api/users?per_page=1');
    await t.api('POST', '/api/users', { body: { username: 'second', email: 's@o.test' } });
    const usersNext = new URL(linkOf((await t.api('GET', '/api/users?per_page=1')).headers, 'next') as string);
    expect(users.status).toBe(200);
    const cross = await t.api('GET', `/api/contract_templates?page=${usersNext.searchParams.get('page')}`);
    expect(cross.status).toBe(400);
    for (const perPage of ['0', '101', 'ten', '1.5']) {
      const response = await t.api('GET', `/api/contract_templates?per_page=${perPage}`);
      expect(response.status).toBe(400);
      expect(response.body.validation_errors[0]).toMatch(/^per_page: /);
    }
    expect((await t.api('GET', '/api/contract_templates?colour=red')).body.validation_errors).toEqual([
      'colour: unknown field',
    ]);
  });

  it('serves 100 a page at most', async () => {
    for (let i = 0; i < 80; i += 1) await t.api('POST', '/api/contract_templates', { body: { name: `bulk ${i}` } });
    const response = await t.api('GET', '/api/contract_templates?per_page=100');
    expect(response.body).toHaveLength(100);
  });
});
