import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

describe('users', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('creates, reads, changes and deletes a user; the password never comes back', async () => {
    const created = await t.api('POST', '/api/users', {
      body: { username: 'åsa', email: 'asa@office.test', password: 'very secret', firstname: 'Åsa', lastname: 'Öberg' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'åsa',
      firstname: 'Åsa',
      lastname: 'Öberg',
      password: null,
      permission_template: 'CUSTOMER_USER',
      active: true,
    });
    expect(created.text).not.toContain('very secret');
    const changed = await t.api('PUT', created.body.self, {
      body: { lastname: 'Ek', permission_template: 'CUSTOMER_ADMIN_USER', password: 'another secret' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      firstname: 'Åsa',
      lastname: 'Ek',
      permission_template: 'CUSTOMER_ADMIN_USER',
      password: null,
    });
    expect((await t.api('GET', created.body.self)).body).toEqual(changed.body);
    expect((await t.api('DELETE', created.body.self)).status).toBe(204);
    expect((await t.api('GET', created.body.self)).status).toBe(404);
    expect((await t.api('DELETE', created.body.self)).status).toBe(404);
  });

  it('refuses a taken username and bad fields, changing nothing', async () => {
    const total = async () => (await t.api('GET', '/api/users')).headers.get('pagination-items-total');
    const before = await total();
    const taken = await t.api('POST', '/api/users', { body: { username: 'admin', email: 'x@office.test' } });
    expect(taken.status).toBe(400);
    expect(taken.body.validation_errors).toEqual(['username: admin is already taken']);
    const bad = await t.api('POST', '/api/users', {
      body: { username: 'has space', email: 'nope', password: 'short', permission_template: 'GOD', active: 'yes' },
    });
    expect(bad.body.validation_errors.sort()).toEqual(
      [
        'active: must be true or false',
        'email: must be a valid email',
        'password: must be at least 8 characters',
        'permission_template: must be one of CUSTOMER_ADMIN_USER, CUSTOMER_USER',
        'username: must not contain spaces',
      ].sort(),
    );
    expect(await total()).toBe(before);
    const badPut = await t.api('PUT', '/api/users/1', { body: { email: 'x'.repeat(1001) } });
    expect(badPut.status).toBe(400);
    expect((await t.api('GET', '/api/users/1')).body.email).toBe('admin@office.test');
  });

  it('keeps the last active administrator', async () => {
    for (const change of [{ active: false }, { permission_template: 'CUSTOMER_USER' }]) {
      const response = await t.api('PUT', '/api/users/1', { body: change });
      expect(response.status).toBe(409);
      expect(response.body.type).toMatch(/#conflict$/);
    }
    expect((await t.api('DELETE', '/api/users/1')).status).toBe(409);
    expect((await t.api('GET', '/api/users/1')).body.active).toBe(true);
  });

  it('revokes the tokens of a deleted user', async () => {
    const partner = await t.api('POST', '/api/users', {
      body: { username: 'leaver', email: 'l@office.test', permission_template: 'CUSTOMER_ADMIN_USER' },
    });
    const { cli } = await import('../helpers/server');
    const key = (await cli(t.dataDir, ['token', 'create', '--name', 'leaver', '--user', 'leaver'])).out.at(
      -1,
    ) as string;
    expect((await t.api('GET', '/api/users/1', { key })).status).toBe(200);
    await t.api('DELETE', partner.body.self);
    expect((await t.api('GET', '/api/users/1', { key })).status).toBe(401);
  });
});

describe('contract templates', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('creates with defaults, changes only the fields sent, and deletes', async () => {
    const created = await t.api('POST', '/api/contract_templates', { body: { name: 'Anställningsavtal' } });
    expect(created.body).toMatchObject({
      name: 'Anställningsavtal',
      is_published: false,
      header: '',
      content: '',
      footer: '',
      footer_type: 'SIMPLE',
      created_by: t.adminPath,
    });
    expect(created.body.updated_time).toBe(created.body.created_time);
    const changed = await t.api('PUT', created.body.self, {
      body: { content: '# Avtal\n\n**Lön:** 40 000 kr', is_published: true },
    });
    expect(changed.body).toMatchObject({
      name: 'Anställningsavtal',
      content: '# Avtal\n\n**Lön:** 40 000 kr',
      is_published: true,
    });
    const noop = await t.api('PUT', created.body.self, { body: {} });
    expect(noop.status).toBe(200);
    expect((await t.api('PUT', created.body.self, { body: { name: '' } })).body.validation_errors).toEqual([
      'name: must not be empty',
    ]);
    expect((await t.api('DELETE', created.body.self)).status).toBe(204);
    expect((await t.api('GET', created.body.self)).status).toBe(404);
    expect((await t.api('PUT', created.body.self, { body: { name: 'x' } })).status).toBe(404);
  });
});

describe('the partner API', () => {
  let t: TestServer;
  let partnerKey: string;
  beforeAll(async () => {
    t = await startTestServer();
    const { cli } = await import('../helpers/server');
    partnerKey = (await cli(t.dataDir, ['token', 'create', '--name', 'msp', '--kind', 'partner'])).out.at(-1) as string;
  });
  afterAll(() => t.close());

  it('is closed to customer tokens', async () => {
    for (const [method, path] of [
      ['GET', '/api/partner/customer'],
      ['GET', '/api/partner/tokens'],
      ['POST', '/api/partner/tokens'],
    ] as const) {
      expect((await t.api(method, path, { body: method === 'POST' ? { name: 'x' } : undefined })).status).toBe(403);
    }
  });

  it("keeps the office's profile", async () => {
    const put = await t.api('PUT', '/api/partner/customer', {
      key: partnerKey,
      body: { name: 'Byrå Ek & Co', email: 'kontor@ek.test' },
    });
    expect(put.body).toMatchObject({
      self: '/api/partner/customer',
      name: 'Byrå Ek & Co',
      email: 'kontor@ek.test',
      default_rate_limit: 30,
    });
    expect(
      (await t.api('PUT', '/api/partner/customer', { key: partnerKey, body: { default_rate_limit: 0 } })).status,
    ).toBe(400);
    expect((await t.api('PUT', '/api/partner/customer', { key: partnerKey, body: { email: 'not mail' } })).status).toBe(
      400,
    );
  });

  it('creates a token whose key is shown once, changes its limit and revokes it', async () => {
    const created = await t.api('POST', '/api/partner/tokens', {
      key: partnerKey,
      body: { name: 'ERP', rate_limit: 120 },
    });
    expect(created.status).toBe(201);
    expect(created.body.api_key).toMatch(new RegExp(`^${created.body.public_id}:`));
    expect(created.body).toMatchObject({
      name: 'ERP',
      kind: 'customer',
      rate_limit: 120,
      has_own_rate_limit: true,
      revoked_time: null,
    });
    const key = created.body.api_key as string;
    const used = await t.api('GET', '/api/contract_templates', { key });
    expect(used.headers.get('x-ratelimit-limit')).toBe('120');
    const read = await t.api('GET', created.body.self, { key: partnerKey });
    expect(read.body.api_key).toBeUndefined();
    expect(read.text).not.toContain(key.split(':')[1]);
    const limited = await t.api('PUT', created.body.self, { key: partnerKey, body: { rate_limit: null } });
    expect(limited.body).toMatchObject({ rate_limit: 30, has_own_rate_limit: false });
    expect((await t.api('GET', '/api/contract_templates', { key })).headers.get('x-ratelimit-limit')).toBe('30');
    expect((await t.api('DELETE', created.body.self, { key: partnerKey })).status).toBe(204);
    expect((await t.api('GET', '/api/contract_templates', { key })).status).toBe(401);
    const after = await t.api('GET', created.body.self, { key: partnerKey });
    expect(after.body.revoked_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('refuses a token for an unknown or inactive owner', async () => {
    const response = await t.api('POST', '/api/partner/tokens', {
      key: partnerKey,
      body: { name: 'x', user: '/api/users/999' },
    });
    expect(response.status).toBe(400);
    expect(response.body.validation_errors).toEqual(['user: must be an active user']);
    expect(
      (await t.api('POST', '/api/partner/tokens', { key: partnerKey, body: { name: 'x', kind: 'root' } })).status,
    ).toBe(400);
  });
});
