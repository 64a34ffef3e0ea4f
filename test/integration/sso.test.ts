import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { cookieJar, signInAtProvider, startOidcProvider, type TestProvider } from '../helpers/oidc-provider';

/** A browser at SignDesk: its cookies (the sign-in binding, then the session) kept between requests. */
function browser(server: TestServer) {
  const jar = cookieJar();
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(new URL(path, server.url), {
      method,
      headers: {
        'accept-api-version': '1',
        cookie: jar.header(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    jar.keep(response);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  return {
    jar,
    call,
    start: async () => {
      const started = await call('POST', '/api/sso/start');
      expect(started.status).toBe(200);
      return started.body.authorization_url as string;
    },
    finish: (callbackUrl: string) => call('POST', '/api/sso/callback', { callback_url: callbackUrl }),
  };
}

describe('single sign-on through OpenID Connect', () => {
  let server: TestServer;
  let provider: TestProvider;
  const settings = () => ({
    is_enabled: true,
    provider_name: 'Office ID',
    issuer_url: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    claim: 'groups',
    claim_mapping: [
      { value: 'signdesk-admins', permission_template: 'CUSTOMER_ADMIN_USER' },
      { value: 'staff', permission_template: 'CUSTOMER_USER' },
    ],
    user_mode: 'create',
  });
  const officeLog = async () =>
    (await server.api<Array<{ event: string; details: Record<string, string> }>>('GET', '/api/office_log')).body;

  beforeAll(async () => {
    server = await startTestServer();
    provider = await startOidcProvider(`${server.url}/admin/sso-callback`);
    provider.accounts.set('anna', {
      email: 'Anna@Office.test',
      groups: ['staff', 'signdesk-admins'],
      given_name: 'Anna',
    });
    provider.accounts.set('bo', { email: 'bo@office.test', groups: ['staff'] });
    provider.accounts.set('eve', { email: 'eve@office.test', groups: ['marketing'] });
    expect((await browser(server).call('GET', '/api/sso')).body.is_enabled).toBe(false);
    expect((await server.api('PUT', '/api/settings/sso', { body: settings() })).status).toBe(200);
  });
  afterAll(async () => {
    await provider?.close();
    await server?.close();
  });

  it('is set up by an administrator: the secret sealed and masked, the change in the office log', async () => {
    const saved = await server.api('GET', '/api/settings/sso');
    expect(saved.body).toMatchObject({ client_secret: '********', issuer_url: provider.issuer, user_mode: 'create' });
    expect(saved.text).not.toContain(provider.clientSecret);
    const stored = await server.server.ctx.repos.settings.get('sso.client_secret');
    expect(stored).toMatch(/^sealed:v1:/);
    expect(stored).not.toContain(provider.clientSecret);
    const entry = (await officeLog()).find((each) => each.event === 'sso.settings_changed');
    expect(entry?.details.fields).toContain('client_secret');
    expect(JSON.stringify(entry)).not.toContain(provider.clientSecret);
    expect((await browser(server).call('GET', '/api/sso')).body).toEqual({
      is_enabled: true,
      provider_name: 'Office ID',
      is_password_sign_in_off: false,
    });
  });

  it('signs a new user in with the permission their group maps to, and records the user made', async () => {
    const madeBefore = (await officeLog()).filter((each) => each.event === 'sso.user_created').length;
    const anna = browser(server);
    const callback = await signInAtProvider(provider, await anna.start(), 'anna');
    const signedIn = await anna.finish(callback);
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.user).toMatchObject({
      username: 'anna@office.test',
      email: 'Anna@Office.test',
      firstname: 'Anna',
      permission_template: 'CUSTOMER_ADMIN_USER',
    });
    expect(anna.jar.has('signdesk_session')).toBe(true);
    expect(anna.jar.has('signdesk_sso')).toBe(false);
    expect((await anna.call('GET', '/api/session')).body.is_admin).toBe(true);
    const made = (await officeLog()).filter((each) => each.event === 'sso.user_created');
    expect(made).toHaveLength(madeBefore + 1);
    expect(made.at(-1)?.details).toMatchObject({ permission_template: 'CUSTOMER_ADMIN_USER', issuer: provider.issuer });

    const bo = browser(server);
    const boIn = await bo.finish(await signInAtProvider(provider, await bo.start(), 'bo'));
    expect(boIn.body.user.permission_template).toBe('CUSTOMER_USER');
    // The second sign-in finds the user made at the first.
    const again = browser(server);
    expect((await again.finish(await signInAtProvider(provider, await again.start(), 'anna'))).status).toBe(201);
    expect((await officeLog()).filter((each) => each.event === 'sso.user_created')).toHaveLength(madeBefore + 2);
  });

  it('refuses a wrong state, and a sign-in finished in another browser', async () => {
    const person = browser(server);
    const callback = new URL(await signInAtProvider(provider, await person.start(), 'bo'));
    const wrong = new URL(callback);
    wrong.searchParams.set('state', 'a-state-this-server-never-gave');
    const refused = await person.finish(wrong.href);
    expectProblem(refused, 401, 'unauthorized');
    expect(refused.body.detail).toMatch(/state does not match/);
    expect(person.jar.has('signdesk_session')).toBe(false);

    const stranger = browser(server);
    await stranger.start();
    const elsewhere = await stranger.finish(callback.href);
    expect(elsewhere.body.detail).toMatch(/started in another browser/);
  });

  it('refuses a code used before, whether with its own state or a new one', async () => {
    const person = browser(server);
    const callback = await signInAtProvider(provider, await person.start(), 'bo');
    expect((await person.finish(callback)).status).toBe(201);
    const replayed = await person.finish(callback);
    expectProblem(replayed, 401, 'unauthorized');
    expect(replayed.body.detail).toMatch(/used already/);

    // A fresh state of this browser carrying the old code: the provider refuses the code.
    const fresh = new URL(await signInAtProvider(provider, await person.start(), 'bo'));
    const withOldCode = new URL(fresh);
    withOldCode.searchParams.set('code', new URL(callback).searchParams.get('code') ?? '');
    const refused = await person.finish(withOldCode.href);
    expectProblem(refused, 401, 'unauthorized');
    expect(refused.body.detail).toMatch(/refused the sign-in code: it was used already/);
  });

  it('refuses an ID token made for another client', async () => {
    const person = browser(server);
    const callback = await signInAtProvider(provider, await person.start(), 'bo');
    provider.changeIdToken = (claims) => ({ ...claims, aud: 'another-client' });
    try {
      const refused = await person.finish(callback);
      expectProblem(refused, 401, 'unauthorized');
      expect(refused.body.detail).toMatch(/made for another client/);
      expect(person.jar.has('signdesk_session')).toBe(false);
    } finally {
      provider.changeIdToken = undefined;
    }
  });

  it('refuses an expired ID token', async () => {
    const person = browser(server);
    const callback = await signInAtProvider(provider, await person.start(), 'bo');
    // The provider's ID tokens live 60 s; SignDesk reads them five minutes later by its own clock.
    server.clock.shift(5 * 60 * 1000);
    try {
      const refused = await person.finish(callback);
      expectProblem(refused, 401, 'unauthorized');
      expect(refused.body.detail).toMatch(/ID token has expired/);
    } finally {
      server.clock.reset();
    }
  });

  it('gives no access to a group the map does not name, nor to an unknown user where users must exist', async () => {
    const madeBefore = (await officeLog()).filter((each) => each.event === 'sso.user_created').length;
    const eve = browser(server);
    const refused = await eve.finish(await signInAtProvider(provider, await eve.start(), 'eve'));
    expectProblem(refused, 403, 'forbidden');
    expect(refused.body.detail).toMatch(/no groups value this office has given access/);

    await server.api('PUT', '/api/settings/sso', { body: { user_mode: 'existing' } });
    try {
      provider.accounts.set('dan', { email: 'dan@office.test', groups: ['staff'] });
      const dan = browser(server);
      const unknown = await dan.finish(await signInAtProvider(provider, await dan.start(), 'dan'));
      expectProblem(unknown, 403, 'forbidden');
      expect(unknown.body.detail).toMatch(/No SignDesk user has this e-mail address/);
      expect((await officeLog()).filter((each) => each.event === 'sso.user_created')).toHaveLength(madeBefore);
    } finally {
      await server.api('PUT', '/api/settings/sso', { body: { user_mode: 'create' } });
    }
  });

  it('limits the sign-ins started from one address', async () => {
    // Each start asks the provider for its discovery document and stores a row: 30 a minute from one
    // address. From an address of its own (any of 127.0.0.0/8 reaches the server), apart from the other tests.
    const startFrom = (localAddress: string) =>
      new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const request = http.request(`${server.url}/api/sso/start`, {
          method: 'POST',
          localAddress,
          agent: false,
          headers: { 'accept-api-version': '1', 'content-length': 0 },
        });
        request.on('response', (response) => {
          response.resume();
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'] }),
          );
        });
        request.on('error', reject);
        request.end();
      });
    const answers = [];
    for (let n = 0; n < 31; n += 1) answers.push(await startFrom('127.0.0.31'));
    expect(answers.slice(0, 30).map((answer) => answer.status)).toEqual(Array(30).fill(200));
    expect(answers[30]?.status).toBe(429);
    expect(Number(answers[30]?.retryAfter)).toBeGreaterThan(0);
    expect((await startFrom('127.0.0.32')).status).toBe(200);
  });

  it('turns password sign-in off for everyone but the break-glass administrator', async () => {
    const made = await server.api('POST', '/api/users', {
      body: { username: 'carl', password: 'carls long password', email: 'carl@office.test' },
    });
    expect(made.status).toBe(201);
    const noBreakGlass = await server.api('PUT', '/api/settings/sso', { body: { is_password_sign_in_off: true } });
    expectProblem(noBreakGlass, 400, 'validation-failed');
    const off = await server.api('PUT', '/api/settings/sso', {
      body: { is_password_sign_in_off: true, break_glass_username: 'admin' },
    });
    expect(off.status).toBe(200);
    expect((await browser(server).call('GET', '/api/sso')).body.is_password_sign_in_off).toBe(true);

    const carl = await browser(server).call('POST', '/api/session', {
      username: 'carl',
      password: 'carls long password',
    });
    expectProblem(carl, 403, 'forbidden');
    expect(carl.body.detail).toBe('Password sign-in is turned off for this office; sign in with Office ID.');
    const admin = await browser(server).call('POST', '/api/session', { username: 'admin', password: 'correct horse' });
    expect(admin.status).toBe(201);
    // Single sign-on still works for everyone.
    const bo = browser(server);
    expect((await bo.finish(await signInAtProvider(provider, await bo.start(), 'bo'))).status).toBe(201);

    await server.api('PUT', '/api/settings/sso', { body: { is_password_sign_in_off: false } });
    const back = await browser(server).call('POST', '/api/session', {
      username: 'carl',
      password: 'carls long password',
    });
    expect(back.status).toBe(201);
  });
});
