import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { cli, startTestServer, type TestServer } from '../helpers/server';
import { createResponseValidator, type OpenApiDocument, type ResponseValidator } from '../helpers/openapi';
import { sessionClient, type SessionClient } from '../helpers/session';
import { makeUser, type MadeUser } from '../helpers/users';

/** A moment 10 s into a 30-second step, so a code made now is the server's code too. */
const STEP_START = 1_900_000_020_000;

/**
 * Two-factor sign-in with an authenticator app over HTTP, as the admin UI and an office's
 * phone do it: the test makes the app's codes from the secret the server showed, at the
 * server's time (the test moves it).
 */
describe('two-factor sign-in', () => {
  let t: TestServer;
  let validate: ResponseValidator;
  let tove: MadeUser;
  let toveSecret: string;
  let toveRecovery: string[];

  const codeAt = (secret: string, ms = t.clock.now()) => generateSync({ secret, epoch: Math.floor(ms / 1000) });

  /** A session client whose answers are checked against the OpenAPI document. */
  function client(): SessionClient {
    const inner = sessionClient(t.url);
    const send = inner.request;
    const request: SessionClient['request'] = async (method, pathname, options) => {
      const response = await send(method, pathname, options);
      validate(
        method,
        new URL(pathname, t.url),
        response.status,
        response.headers.get('content-type') ?? '',
        response.body,
      );
      return response;
    };
    return Object.assign(inner, { request });
  }

  const passwordStep = async (c: SessionClient, user: MadeUser) =>
    c.request('POST', '/api/session', { body: { username: user.username, password: user.password } });

  const officeLog = async (event: string) =>
    (
      (await t.api('GET', '/api/office_log')).body as {
        event: string;
        subject: string;
        details: Record<string, string>;
      }[]
    ).filter((entry) => entry.event === event);

  beforeAll(async () => {
    t = await startTestServer();
    validate = createResponseValidator(
      (await (await fetch(new URL('/api/openapi.json', t.url))).json()) as OpenApiDocument,
    );
    t.clock.set(STEP_START);
    tove = await makeUser(t, 'tove');
  });
  afterAll(() => t.close());

  it('sets up an authenticator app from its QR code and a confirming code, with ten recovery codes', async () => {
    const c = client();
    expect((await passwordStep(c, tove)).status).toBe(201);
    expect((await c.request('GET', '/api/session/totp')).body).toMatchObject({ is_enabled: false, is_required: false });

    const started = await c.request('POST', '/api/session/totp');
    expect(started.status).toBe(200);
    toveSecret = started.body.secret;
    expect(started.body.otpauth_uri).toMatch(new RegExp(`^otpauth://totp/.*:tove\\?.*secret=${toveSecret}`));
    expect(started.body.qr_code_svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // An API key has no second factor to set up.
    expectProblem(await tove.api('POST', '/api/session/totp'), 403, 'forbidden');

    expectProblem(
      await c.request('POST', '/api/session/totp/confirm', { body: { code: '000000' } }),
      401,
      'unauthorized',
    );
    const confirmed = await c.request('POST', '/api/session/totp/confirm', { body: { code: codeAt(toveSecret) } });
    expect(confirmed.status).toBe(200);
    toveRecovery = confirmed.body.recovery_codes;
    expect(new Set(toveRecovery).size).toBe(10);
    expect((await c.request('GET', '/api/session/totp')).body).toMatchObject({
      is_enabled: true,
      recovery_codes_left: 10,
    });
    // The office log records it; neither the secret nor a code is in the log.
    const [entry] = await officeLog('second_factor.enrolled');
    expect(entry).toMatchObject({ subject: tove.path, details: { method: 'totp' } });
    expect(JSON.stringify(await t.api('GET', '/api/office_log'))).not.toContain(toveSecret);
  });

  it('asks for a code after the password, takes it once, and refuses a wrong one', async () => {
    t.clock.set(STEP_START + 30_000);
    const c = client();
    const pending = await passwordStep(c, tove);
    expect(pending.status).toBe(202);
    expect(pending.body.second_factor).toBe('totp');
    expect(pending.headers.get('set-cookie')).toBeNull();
    expect(c.cookie).toBeUndefined();

    const token = pending.body.pending_token as string;
    const wrong = await c.request('POST', '/api/session/second-factor', {
      body: { pending_token: token, code: '123456' },
    });
    expectProblem(wrong, 401, 'unauthorized');
    const tampered = `${token.slice(0, -4)}AAAA`;
    const code = codeAt(toveSecret);
    expectProblem(
      await c.request('POST', '/api/session/second-factor', { body: { pending_token: tampered, code } }),
      401,
      'unauthorized',
    );
    const signedIn = await c.request('POST', '/api/session/second-factor', { body: { pending_token: token, code } });
    expect(signedIn.status).toBe(201);
    expect((await c.request('GET', '/api/session')).body.user.username).toBe('tove');

    // The same code again (the same time step), even after the password again: refused.
    const again = client();
    const second = await passwordStep(again, tove);
    expectProblem(
      await again.request('POST', '/api/session/second-factor', {
        body: { pending_token: second.body.pending_token, code },
      }),
      401,
      'unauthorized',
    );
    // Her API key works as before.
    expect((await tove.api('GET', '/api/contracts')).status).toBe(200);
  });

  it('lets a recovery code in once', async () => {
    const [recovery] = toveRecovery;
    const useRecovery = async () => {
      const c = client();
      const pending = await passwordStep(c, tove);
      return c.request('POST', '/api/session/second-factor', {
        body: { pending_token: pending.body.pending_token, code: recovery!.toUpperCase() },
      });
    };
    expect((await useRecovery()).status).toBe(201);
    expectProblem(await useRecovery(), 401, 'unauthorized');
    const [entry] = await officeLog('second_factor.recovery_code_used');
    expect(entry).toMatchObject({ subject: tove.path, details: { recovery_codes_left: '9' } });
  });

  it('slows down guessing codes like passwords, the right code included', async () => {
    t.clock.set(STEP_START + 60_000);
    const c = client();
    const token = (await passwordStep(c, tove)).body.pending_token as string;
    const tryCode = (code: string) =>
      c.request('POST', '/api/session/second-factor', { body: { pending_token: token, code } });
    // At most five wrong codes are checked (fewer when failures above still count), then 429.
    const statuses: number[] = [];
    for (const guess of ['111111', '222222', '333333', '444444', '555555', '666666']) {
      statuses.push((await tryCode(guess)).status);
      if (statuses.at(-1) === 429) break;
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.length).toBeLessThanOrEqual(6);
    const held = await tryCode(codeAt(toveSecret));
    expectProblem(held, 429, 'rate-limited');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    // Once the wait is over, the right code gets in.
    t.clock.set(STEP_START + 90_000);
    expect((await tryCode(codeAt(toveSecret))).status).toBe(201);
  });

  it('leads a user without a second factor through setting one up once the office requires it', async () => {
    const ulf = await makeUser(t, 'ulf');
    const required = await t.api('PUT', '/api/settings/sign-in', { body: { require_two_factors: true } });
    expect(required.body).toEqual({ require_two_factors: true });
    expect((await officeLog('settings.changed')).at(-1)).toMatchObject({
      subject: '/api/settings/sign-in',
      details: { require_two_factors: 'true' },
    });

    const c = client();
    const pending = await passwordStep(c, ulf);
    expect(pending.status).toBe(202);
    expect(pending.body.second_factor).toBe('enrol');
    const token = pending.body.pending_token as string;
    // No session yet, and the step for a code is not this one.
    expect((await c.request('GET', '/api/session')).status).toBe(401);
    expectProblem(
      await c.request('POST', '/api/session/second-factor', { body: { pending_token: token, code: '123456' } }),
      401,
      'unauthorized',
    );
    const enrolment = await c.request('POST', '/api/session/enrolment', { body: { pending_token: token } });
    expect(enrolment.status).toBe(200);
    const done = await c.request('POST', '/api/session/enrolment/confirm', {
      body: { pending_token: token, code: codeAt(enrolment.body.secret) },
    });
    expect(done.status).toBe(201);
    expect(done.body.recovery_codes).toHaveLength(10);
    expect((await c.request('GET', '/api/session')).body.user.username).toBe('ulf');
    // API keys are not asked for a second factor.
    expect((await ulf.api('GET', '/api/contracts')).status).toBe(200);

    // He turns it off again with his password (a wrong one changes nothing); the office log records it.
    const off = (password: string) => c.request('POST', '/api/session/totp/remove', { body: { password } });
    expectProblem(await off('not his password'), 401, 'unauthorized');
    expect((await c.request('GET', '/api/session/totp')).body.is_enabled).toBe(true);
    expect((await off(ulf.password)).status).toBe(204);
    expect((await c.request('GET', '/api/session/totp')).body.is_enabled).toBe(false);
    expect((await officeLog('second_factor.removed')).at(-1)).toMatchObject({ subject: ulf.path });
  });

  it('lets the CLI reset a lost phone, recorded in the office log', async () => {
    const reset = await cli(t.dataDir, ['user', 'reset-second-factor', '--username', 'tove']);
    expect(reset.code, reset.err.join('\n')).toBe(0);
    expect((await officeLog('second_factor.reset')).at(-1)).toMatchObject({
      subject: tove.path,
      details: { had_second_factor: 'true' },
    });
    // With two factors required, she sets up a new app at her next sign-in; without, the password is enough.
    expect((await passwordStep(client(), tove)).body.second_factor).toBe('enrol');
    await t.api('PUT', '/api/settings/sign-in', { body: { require_two_factors: false } });
    expect((await passwordStep(client(), tove)).status).toBe(201);
    expect((await cli(t.dataDir, ['user', 'reset-second-factor', '--username', 'nobody'])).code).toBe(2);
  });
});
