import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type MadeUser } from '../helpers/users';

describe('what an ordinary user may do', () => {
  let t: TestServer;
  let clerk: MadeUser;
  let colleague: MadeUser;
  let adminContract: string;
  let published: string;
  let boardOnly: string;
  beforeAll(async () => {
    t = await startTestServer();
    clerk = await makeUser(t, 'clerk');
    colleague = await makeUser(t, 'colleague');
    adminContract = (await t.api('POST', '/api/contracts', { body: { name: 'Board minutes' } })).body.self;
    published = (
      await t.api('POST', '/api/contract_templates', {
        body: { name: 'Lease', content: 'Rent: 10 000 kr', is_published: true },
      })
    ).body.self;
    boardOnly = (await t.api('POST', '/api/contract_templates', { body: { name: 'Board only', content: 'Secret' } }))
      .body.self;
  });
  afterAll(() => t.close());

  const as =
    (user: MadeUser) =>
    (method: string, path: string, options: Parameters<TestServer['api']>[2] = {}) =>
      t.api(method, path, { key: user.key, ...options });

  it('works with its own contracts from start to sending, and lists only them', async () => {
    const api = as(clerk);
    const created = await api('POST', '/api/contracts', {
      raw: { data: await makePdf(), contentType: 'application/pdf' },
    });
    expect(created.status).toBe(201);
    expect(created.body.created_by).toBe(clerk.path);
    const self = created.body.self as string;
    expect((await api('PUT', self, { body: { name: 'Clerk lease' } })).status).toBe(200);
    const party = await api('POST', `${self}/parties`, {
      body: { name: 'Eva', email: 'eva@office.test', user: clerk.path },
    });
    expect(party.status, party.text).toBe(201);
    const annotation = await api('POST', `${self}/annotations`, {
      body: { party_id: party.body.self, type: 'SIGNATURE', pdf_page: 1, pos_x: 10, pos_y: 10, width: 100, height: 30 },
    });
    expect(annotation.status).toBe(201);
    const attachment = await api('POST', `${self}/attachments`, {
      raw: { data: 'annex', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="annex.txt"' },
    });
    expect(attachment.status).toBe(201);
    expect((await api('GET', `${self}/activity_log`)).status).toBe(200);
    expect((await api('GET', `${self}/pdf`)).status).toBe(200);
    const sent = await api('POST', `${self}/send`, { body: { silent: true } });
    expect(sent.status, sent.text).toBe(200);
    expect((await api('POST', `${self}/notify`)).status).toBe(200);

    const listed = await api('GET', '/api/contracts?per_page=100');
    expect(listed.body.map((row: { self: string }) => row.self)).toEqual([self]);
    expect(listed.headers.get('pagination-items-total')).toBe('1');
    const byAdmin = await api('GET', '/api/contracts?user=/api/users/1');
    expect(byAdmin.body).toEqual([]);
    expect(byAdmin.headers.get('pagination-items-total')).toBe('0');
    expect((await api('GET', `/api/contracts?user=${clerk.path}`)).body).toHaveLength(1);
    // The colleague sees none of it; the administrator sees it all.
    expect((await as(colleague)('GET', self)).status).toBe(404);
    expect((await as(colleague)('GET', '/api/contracts')).body).toEqual([]);
    expect((await t.api('GET', self)).status).toBe(200);
    expect((await api('GET', adminContract)).status).toBe(404);
  });

  it('links a party only to itself', async () => {
    const api = as(clerk);
    const self = (await api('POST', '/api/contracts', { body: { name: 'Links' } })).body.self as string;
    for (const user of ['/api/users/1', colleague.path, '/api/users/999']) {
      const refused = await api('POST', `${self}/parties`, { body: { name: 'Eva', email: 'eva@office.test', user } });
      expect(refused.status).toBe(400);
      expect(refused.body.validation_errors).toEqual([`user: may only be yourself (${clerk.path}) or null`]);
    }
  });

  it('uses published templates, keeps its own, and changes only its own', async () => {
    const api = as(clerk);
    const listed = await api('GET', '/api/contract_templates?per_page=100');
    expect(listed.body.map((row: { self: string }) => row.self)).toEqual([published]);
    expect((await api('GET', published)).status).toBe(200);
    expect((await api('GET', `${published}/pdf_preview`)).status).toBe(200);
    expect((await api('GET', boardOnly)).status).toBe(404);
    expect((await api('GET', `${boardOnly}/pdf_preview`)).status).toBe(404);
    const fromPublished = await api('POST', '/api/contracts', { body: { template: published } });
    expect(fromPublished.status).toBe(201);
    const fromHidden = await api('POST', '/api/contracts', { body: { template: boardOnly } });
    expect(fromHidden.status).toBe(400);
    expect(fromHidden.body.validation_errors).toEqual([`template: ${boardOnly} is no contract template`]);
    expect((await api('PUT', published, { body: { content: 'Rent: 1 kr' } })).status).toBe(403);
    expect((await api('DELETE', published)).status).toBe(403);
    expect((await t.api('GET', published)).body.content).toBe('Rent: 10 000 kr');

    const own = await api('POST', '/api/contract_templates', { body: { name: 'My notes' } });
    expect(own.status).toBe(201);
    expect((await api('PUT', own.body.self, { body: { content: 'Mine' } })).status).toBe(200);
    expect(
      (await api('GET', '/api/contract_templates?per_page=100')).body.map((row: { self: string }) => row.self),
    ).toEqual([own.body.self, published]);
    expect((await api('GET', '/api/contract_templates')).headers.get('pagination-items-total')).toBe('2');
    expect((await as(colleague)('GET', own.body.self)).status).toBe(404);
    expect((await t.api('GET', own.body.self)).status).toBe(200);
    expect((await api('DELETE', own.body.self)).status).toBe(204);
  });

  it('lets an administrator act as another user, and then only as that user', async () => {
    const acting = await t.api('POST', '/api/contracts', {
      body: { name: 'For the clerk' },
      headers: { 'api-user-uri': clerk.path },
    });
    expect(acting.status).toBe(201);
    expect(acting.body.created_by).toBe(clerk.path);
    expect((await as(clerk)('GET', acting.body.self)).status).toBe(200);
    // Acting as the clerk, the administrator has the clerk's rights, not its own.
    expect((await t.api('GET', '/api/users', { headers: { 'api-user-uri': clerk.path } })).status).toBe(403);
    expect((await t.api('GET', adminContract, { headers: { 'api-user-uri': clerk.path } })).status).toBe(404);
  });

  it("keeps the partner API to administrators' partner tokens", async () => {
    const reseller = await makeUser(t, 'reseller', { tokenKind: 'partner' });
    const mint = await t.api('POST', '/api/partner/tokens', {
      key: reseller.key,
      body: { name: 'escalate', user: '/api/users/1' },
    });
    expect(mint.status).toBe(403);
    expect((await t.api('GET', '/api/partner/customer', { key: reseller.key })).status).toBe(403);
  });
});
