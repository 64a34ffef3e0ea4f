import { expectProblem } from '../helpers/problems';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type SignDeskServer } from '../../server/index';
import { makeTempDir, startTestServer, testConfig, type TestServer } from '../helpers/server';
import { sessionClient, signInClient } from '../helpers/session';
import { rawSql } from '../../server/db/raw-sql';

const HOUR = 60 * 60 * 1000;

describe('first-run setup', () => {
  let server: SignDeskServer;
  beforeAll(async () => {
    server = await createServer(testConfig(makeTempDir()));
  });
  afterAll(() => server.close());

  const setup = {
    office_name: 'Lindqvist Juridik',
    office_email: 'office@lindqvist.test',
    username: 'anna',
    password: 'a long secret',
    email: 'anna@lindqvist.test',
    firstname: 'Anna',
  };

  it('is open on a fresh appliance, without a token but with the version header', async () => {
    const client = sessionClient(server.url);
    const status = await client.request('GET', '/api/setup');
    expect(status.status).toBe(200);
    expect(status.body).toEqual({ needs_setup: true, office_name: '' });
    expectProblem(
      await client.request('GET', '/api/setup', { headers: { 'accept-api-version': '' } }),
      400,
      'api-version',
    );
  });

  it('refuses bad input field by field and creates nothing', async () => {
    const client = sessionClient(server.url);
    const response = await client.request('POST', '/api/setup', {
      body: { ...setup, office_email: 'nope', password: 'short', extra: 1 },
    });
    expectProblem(response, 400, 'validation-failed');
    expect(response.body.validation_errors.join('\n')).toMatch(/office_email/);
    expect(response.body.validation_errors.join('\n')).toMatch(/password/);
    expect(response.body.validation_errors.join('\n')).toMatch(/extra/);
    expect(client.cookie).toBeUndefined();
    expect((await client.request('GET', '/api/setup')).body.needs_setup).toBe(true);
  });

  it('makes the office and the first administrator and signs them in', async () => {
    const client = sessionClient(server.url);
    const response = await client.request('POST', '/api/setup', { body: setup });
    expect(response.status).toBe(201);
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^signdesk_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(response.body.user.username).toBe('anna');
    expect(response.body.is_admin).toBe(true);
    expect(response.body.office).toEqual({
      name: setup.office_name,
      email: setup.office_email,
      is_set_up: true,
      time_zone: 'Europe/Stockholm',
    });
    const me = await client.request('GET', '/api/session');
    expect(me.status).toBe(200);
    expect(me.body.user.self).toBe(response.body.user.self);
    const users = await client.request('GET', '/api/users');
    expect(users.status).toBe(200);
    expect(users.body.map((user: any) => user.username)).toEqual(['anna']);
  });

  it('is closed once an administrator exists', async () => {
    const client = sessionClient(server.url);
    expectProblem(
      await client.request('POST', '/api/setup', { body: { ...setup, username: 'mallory' } }),
      409,
      'conflict',
    );
    expect((await client.request('GET', '/api/setup')).body).toEqual({
      needs_setup: false,
      office_name: setup.office_name,
    });
  });
});

describe('admin sessions', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
    const clerk = await t.api('POST', '/api/users', {
      body: { username: 'clerk', email: 'clerk@office.test', password: 'clerk password' },
    });
    expect(clerk.status).toBe(201);
  });
  afterAll(() => t.close());

  it('lets nobody reach the API without signing in', async () => {
    const client = sessionClient(t.url);
    expectProblem(await client.request('GET', '/api/users'), 401, 'unauthorized');
    expectProblem(await client.request('GET', '/api/session'), 401, 'unauthorized');
    expectProblem(await client.request('GET', '/api/settings/general'), 401, 'unauthorized');
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const client = sessionClient(t.url);
    const wrong = await client.request('POST', '/api/session', {
      body: { username: 'admin', password: 'wrong horse' },
    });
    const unknown = await client.request('POST', '/api/session', {
      body: { username: 'nobody', password: 'wrong horse' },
    });
    expectProblem(wrong, 401, 'unauthorized');
    expectProblem(unknown, 401, 'unauthorized');
    expect(wrong.body.detail).toBe(unknown.body.detail);
    expect(client.cookie).toBeUndefined();
  });

  it('signs an administrator made with the CLI in and asks for the office details', async () => {
    const client = await signInClient(t.url, 'admin', 'correct horse');
    const me = await client.request('GET', '/api/session');
    expect(me.body.is_admin).toBe(true);
    expect(me.body.office.is_set_up).toBe(false);
    const saved = await client.request('PUT', '/api/settings/general', {
      body: { office_name: 'Berg & Co', office_email: 'info@berg.test' },
    });
    expect(saved.status).toBe(200);
    expect((await client.request('GET', '/api/session')).body.office).toEqual({
      name: 'Berg & Co',
      email: 'info@berg.test',
      is_set_up: true,
      time_zone: 'Europe/Stockholm',
    });
  });

  it('refuses writes without the session CSRF header with 403 and changes nothing', async () => {
    const client = await signInClient(t.url, 'admin', 'correct horse');
    const body = { name: 'Made without CSRF' };
    expectProblem(await client.request('POST', '/api/contract_templates', { body, csrf: false }), 403, 'forbidden');
    expectProblem(
      await client.request('POST', '/api/contract_templates', { body, csrf: 'A'.repeat(43) }),
      403,
      'forbidden',
    );
    const list = await t.api('GET', '/api/contract_templates?per_page=100');
    expect(list.body.map((row: any) => row.name)).not.toContain(body.name);
    const made = await client.request('POST', '/api/contract_templates', { body });
    expect(made.status).toBe(201);
    expect(made.body.created_by).toBe('/api/users/1');
  });

  it("refuses another session's CSRF token", async () => {
    const first = await signInClient(t.url, 'admin', 'correct horse');
    const second = await signInClient(t.url, 'admin', 'correct horse');
    expectProblem(
      await first.request('POST', '/api/contract_templates', { body: { name: 'x' }, csrf: second.csrf }),
      403,
      'forbidden',
    );
  });

  it('keeps a customer user out of users, tokens, settings and Api-User-Uri', async () => {
    const client = await signInClient(t.url, 'clerk', 'clerk password');
    expect((await client.request('GET', '/api/session')).body.is_admin).toBe(false);
    expect((await client.request('GET', '/api/contract_templates')).status).toBe(200);
    expectProblem(await client.request('GET', '/api/users'), 403, 'forbidden');
    expectProblem(await client.request('GET', '/api/partner/tokens'), 403, 'forbidden');
    expectProblem(await client.request('POST', '/api/partner/tokens', { body: { name: 'sneaky' } }), 403, 'forbidden');
    expectProblem(await client.request('GET', '/api/settings/general'), 403, 'forbidden');
    expectProblem(
      await client.request('POST', '/api/settings/backup', { body: { passphrase: 'a long passphrase' } }),
      403,
      'forbidden',
    );
    expectProblem(await client.request('GET', '/api/settings/backup_schedule'), 403, 'forbidden');
    expectProblem(
      await client.request('GET', '/api/contract_templates', { headers: { 'api-user-uri': '/api/users/1' } }),
      403,
      'forbidden',
    );
  });

  it('ends at sign-out: the old cookie is refused', async () => {
    const client = await signInClient(t.url, 'admin', 'correct horse');
    const cookie = client.cookie;
    const out = await client.request('DELETE', '/api/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/signdesk_session=;/);
    const stale = sessionClient(t.url);
    stale.cookie = cookie;
    expectProblem(await stale.request('GET', '/api/session'), 401, 'unauthorized');
  });

  it('ends after 8 idle hours and after 24 hours in any case', async () => {
    const sql = rawSql(t.server.ctx.db);
    const idle = await signInClient(t.url, 'admin', 'correct horse');
    expect((await idle.request('GET', '/api/users')).status).toBe(200);
    await sql.run(
      'UPDATE admin_sessions SET last_seen_at = last_seen_at - ? WHERE id = (SELECT max(id) FROM admin_sessions)',
      8 * HOUR + 1000,
    );
    const ended = await idle.request('GET', '/api/users');
    expectProblem(ended, 401, 'unauthorized');
    expect(ended.body.detail).toMatch(/session has ended/);

    const busy = await signInClient(t.url, 'admin', 'correct horse');
    await sql.run(
      'UPDATE admin_sessions SET expires_at = ? WHERE id = (SELECT max(id) FROM admin_sessions)',
      Date.now() - 1,
    );
    expectProblem(await busy.request('GET', '/api/users'), 401, 'unauthorized');
  });

  it('ends when its user is deactivated', async () => {
    await t.api('POST', '/api/users', {
      body: { username: 'temp', email: 'temp@office.test', password: 'temp password' },
    });
    const client = await signInClient(t.url, 'temp', 'temp password');
    const me = await client.request('GET', '/api/session');
    expect((await t.api('PUT', me.body.user.self, { body: { active: false } })).status).toBe(200);
    expectProblem(await client.request('GET', '/api/contract_templates'), 401, 'unauthorized');
  });

  it('throttles guessing: after 5 failures even the right password waits its turn', async () => {
    await t.api('POST', '/api/users', {
      body: { username: 'target', email: 'target@office.test', password: 'target password' },
    });
    const client = sessionClient(t.url);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await client.request('POST', '/api/session', { body: { username: 'target', password: `guess ${i}` } })).status,
      ).toBe(401);
    }
    const blocked = await client.request('POST', '/api/session', {
      body: { username: 'target', password: 'target password' },
    });
    expectProblem(blocked, 429, 'rate-limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(client.cookie).toBeUndefined();
    // Another user from the same address is not slowed down.
    expect(
      (await client.request('POST', '/api/session', { body: { username: 'clerk', password: 'clerk password' } }))
        .status,
    ).toBe(201);
  }, 120_000);

  it('signs the administrator in through a one-time link for the desktop shell', async () => {
    const url = t.server.createAdminLoginUrl();
    expect(url).toMatch(new RegExp(`^${t.url}/admin/sign-in-link/[A-Za-z0-9_-]{43}$`));
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/admin/');
    const client = sessionClient(t.url);
    client.cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await client.request('GET', '/api/session')).body.user.username).toBe('admin');
    const again = await fetch(url, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe('/admin/?signin=link-expired');
    expect(again.headers.get('set-cookie')).toBeNull();
  });

  it('lets a one-time link expire after 60 seconds', async () => {
    const url = t.server.createAdminLoginUrl();
    t.clock.shift(61_000);
    try {
      const response = await fetch(url, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/admin/?signin=link-expired');
    } finally {
      t.clock.reset();
    }
  });

  it('publishes sign-in (password with its second step, and single sign-on) and setup in the OpenAPI document as the only routes without a token', async () => {
    const doc: any = await (await fetch(`${t.url}/api/openapi.json`)).json();
    expect(doc.paths['/api/session'].post.security).toEqual([]);
    expect(doc.paths['/api/setup'].post.security).toEqual([]);
    expect(doc.paths['/api/setup'].get.security).toEqual([]);
    expect(doc.paths['/api/session'].get.security).toEqual([{ apiToken: [] }]);
    const open = Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item)
        .filter(([, op]: [string, any]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(open.sort()).toEqual([
      'GET /api/setup',
      'GET /api/sso',
      'POST /api/session',
      'POST /api/session/enrolment',
      'POST /api/session/enrolment/confirm',
      'POST /api/session/second-factor',
      'POST /api/setup',
      'POST /api/sso/callback',
      'POST /api/sso/start',
    ]);
  });
});
