import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { signInClient } from '../helpers/session';
import { cli, startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

const PLAN = '/api/partner/subscription';
const USAGE = '/api/partner/subscription/usage';
const NO_LIMITS = { plan_name: null, seats: null, contracts_per_month: null, sms_per_month: null, end_date: null };

type OfficeEntry = { event: string; actor: string | null; user_agent: string; details: Record<string, string> };

/** The subscription as a partner sets it, who may, what the office log keeps, the seats, and the CLI. */
describe('the subscription through the partner API and the CLI', () => {
  let t: TestServer;
  let partner: string;
  let partnerId: string;
  const asPartner = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    t.api(method, path, { key: partner, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
  const officeLog = async () => (await t.api('GET', '/api/office_log')).body as OfficeEntry[];
  const planEntries = async () => (await officeLog()).filter((entry) => entry.event === 'subscription.changed');

  beforeAll(async () => {
    t = await startTestServer();
    const made = await cli(t.dataDir, [
      'token',
      'create',
      '--name',
      'msp',
      '--kind',
      'partner',
      '--rate-limit',
      '100000',
    ]);
    partner = made.out.at(-1) as string;
    partnerId = partner.split(':')[0] as string;
  });
  afterAll(() => t?.close());
  afterEach(async () => {
    expect((await asPartner('PUT', PLAN, NO_LIMITS)).status).toBe(200);
  });

  it('starts with no limits at all, for partner tokens and administrators only', async () => {
    const plan = await asPartner('GET', PLAN);
    expect(plan.body).toEqual({ self: PLAN, ...NO_LIMITS, updated_time: null });
    const usage = (await asPartner('GET', USAGE)).body;
    expect(usage).toMatchObject({
      self: USAGE,
      plan_name: null,
      contracts_sent: { used: 0, allowed: null },
      sms: { used: 0, allowed: null },
      seats: { used: 1, allowed: null },
      end_date: null,
      is_ended: false,
      warnings: [],
    });
    expect(usage.month_turns_time).toMatch(/^\d{4}-\d{2}-01 00:00:00$/);

    // The administrator's customer token: the partner API is not for it, and its PUT changes nothing.
    for (const [method, path] of [
      ['GET', PLAN],
      ['PUT', PLAN],
      ['GET', USAGE],
    ] as const) {
      const answer = await t.api(method, path, method === 'PUT' ? { body: { contracts_per_month: 0 } } : {});
      expectProblem(answer, 403, 'forbidden');
    }
    const clerk = await makeUser(t, 'clerk', { tokenKind: 'partner' });
    expectProblem(await clerk.api('PUT', PLAN, { body: { seats: 1 } }), 403, 'forbidden');
    expectProblem(await t.api('GET', USAGE, { key: null }), 401, 'unauthorized');
    expect((await asPartner('GET', PLAN)).body).toEqual({ self: PLAN, ...NO_LIMITS, updated_time: null });
    expect(await planEntries()).toEqual([]);
    // A signed-in administrator (the admin UI) reads it.
    const admin = await signInClient(t.url, 'admin', 'correct horse');
    expect((await admin.request('GET', USAGE)).body.seats).toEqual({ used: 2, allowed: null });
  });

  it('refuses a bad plan with a problem and changes nothing', async () => {
    const bad: Array<[unknown, string]> = [
      [{ seats: 0 }, 'seats'],
      [{ contracts_per_month: -1 }, 'contracts_per_month'],
      [{ sms_per_month: 1.5 }, 'sms_per_month'],
      [{ seats: '5' }, 'seats'],
      [{ end_date: '2027-02-30' }, 'end_date'],
      [{ end_date: '30/06/2027' }, 'end_date'],
      [{ plan_name: 'x'.repeat(1_001) }, 'plan_name'],
      [{ contracts_per_month: 10, unknown: 1 }, 'unknown'],
    ];
    for (const [body, field] of bad) {
      const answer = await asPartner('PUT', PLAN, body);
      expectProblem(answer, 400, 'validation-failed');
      expect(answer.body.validation_errors.join('\n'), JSON.stringify(body)).toMatch(new RegExp(`^${field}`, 'm'));
    }
    const malformed = await t.api('PUT', PLAN, {
      key: partner,
      raw: { data: '{"seats": 5', contentType: 'application/json' },
    });
    expectProblem(malformed, 400, 'malformed-json');
    expect((await asPartner('GET', PLAN)).body).toEqual({ self: PLAN, ...NO_LIMITS, updated_time: null });
    expect(await planEntries()).toEqual([]);

    // A form body: numerals are numbers, an empty value is null (unlimited).
    const form = await t.api('PUT', PLAN, { key: partner, form: { seats: '7', sms_per_month: '' } });
    expect(form.status, form.text).toBe(200);
    expect(form.body).toMatchObject({ seats: 7, sms_per_month: null });
  });

  it('keeps every change in the office log: who, what, before and after', async () => {
    const before = (await planEntries()).length;
    const changed = await asPartner('PUT', PLAN, { plan_name: 'Small', seats: 5 }, { 'user-agent': 'msp-console/2.1' });
    expect(changed.body).toMatchObject({ plan_name: 'Small', seats: 5 });
    expect(changed.body.updated_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // The same again changes nothing and logs nothing.
    await asPartner('PUT', PLAN, { seats: 5 });
    const entries = await planEntries();
    expect(entries).toHaveLength(before + 1);
    const entry = entries.at(-1)!;
    expect(entry).toMatchObject({ actor: '/api/users/1', user_agent: 'msp-console/2.1' });
    expect(entry.details.fields).toBe('plan_name,seats');
    expect(entry.details.via).toBe(`partner token ${partnerId}`);
    expect(JSON.parse(entry.details.before!)).toMatchObject({ plan_name: null, seats: null });
    expect(JSON.parse(entry.details.after!)).toEqual({ ...NO_LIMITS, plan_name: 'Small', seats: 5 });
    const check = (await t.api('GET', '/api/office_log/verification')).body;
    expect(check.is_intact).toBe(true);
  });

  it('refuses a user a seat past the plan, naming the partner to ask', async () => {
    const named = await asPartner('PUT', '/api/partner/customer', {
      partner_name: 'Acme IT',
      partner_email: 'support@acme-it.example',
      partner_phone: '+46 8 123 456',
    });
    expect(named.body).toMatchObject({ partner_name: 'Acme IT', partner_phone: '+46 8 123 456' });
    const active = (await asPartner('GET', USAGE)).body.seats.used;
    await asPartner('PUT', PLAN, { seats: active });
    const users = (await t.api('GET', '/api/users?per_page=100')).body.length;

    const refused = await t.api('POST', '/api/users', { body: { username: 'extra', email: 'extra@office.test' } });
    expectProblem(refused, 403, 'plan-limit');
    expect(refused.body.detail).toBe(
      `The office's plan has ${active} seats (seats), and ${active} users are active. A seat is freed when a user is deactivated or deleted, or the plan gets more seats. Ask Acme IT (support@acme-it.example, +46 8 123 456) about the plan.`,
    );
    expect((await t.api('GET', '/api/users?per_page=100')).body.length).toBe(users);
    const viaCli = await cli(t.dataDir, [
      'user',
      'create',
      '--username',
      'extra',
      '--password',
      'long enough',
      '--email',
      'e@office.test',
    ]);
    expect(viaCli.code).toBe(1);
    expect(viaCli.err.join('\n')).toContain('(seats)');

    // An inactive user takes no seat; activating one does.
    const resting = await t.api('POST', '/api/users', {
      body: { username: 'resting', email: 'resting@office.test', active: false },
    });
    expect(resting.status, resting.text).toBe(201);
    expectProblem(await t.api('PUT', resting.body.self, { body: { active: true } }), 403, 'plan-limit');
    expect((await t.api('GET', resting.body.self)).body.active).toBe(false);
    // Other changes to a user go through.
    expect((await t.api('PUT', resting.body.self, { body: { firstname: 'Rut' } })).status).toBe(200);
    await asPartner('PUT', PLAN, { seats: active + 1 });
    expect((await t.api('PUT', resting.body.self, { body: { active: true } })).body.active).toBe(true);
    expect((await asPartner('GET', USAGE)).body.warnings).toContainEqual({
      check: 'seats',
      used: active + 1,
      allowed: active + 1,
      end_date: null,
      days_left: null,
      is_reached: true,
    });
  });

  it('is in the OpenAPI document and the API docs, with its problem type where it can be answered', async () => {
    const document = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as any;
    for (const [path, methods] of [
      ['/api/partner/subscription', ['get', 'put']],
      ['/api/partner/subscription/usage', ['get']],
    ] as const)
      for (const method of methods) expect(document.paths[path][method]['x-access'], path).toBe('partner');
    expect(document.paths['/api/contracts/{contract_id}/send'].post.responses['403'].description).toBe(
      'Forbidden; Plan limit reached',
    );
    expect(document.paths['/api/contracts/{contract_id}'].get.responses['403'].description).toBe('Forbidden');
    const postingData = await (await fetch(`${t.url}/apidoc/v1/posting_data`)).text();
    expect(postingData).toContain('<section id="plan-limit">');
    const docs = await (await fetch(`${t.url}/apidoc/v1/`)).text();
    expect(docs).toContain('id="getSubscriptionUsage"');
    expect(docs).toContain('id="plan-limits"');
    // The send lists the plan-limit problem among its errors; a read of a contract does not.
    const section = (operationId: string) =>
      docs
        .slice(docs.indexOf(`id="${operationId}"`))
        .split('<h5>Errors</h5>')[1]!
        .split('</ul>')[0];
    expect(section('sendContract')).toContain('posting_data#plan-limit');
    expect(section('getContract')).not.toContain('posting_data#plan-limit');
  });

  it('is shown and set by the CLI, which the office log names', async () => {
    const set = await cli(t.dataDir, [
      'subscription',
      'set',
      '--plan-name',
      'Kontor',
      '--seats',
      '10',
      '--contracts-per-month',
      '100',
      '--sms-per-month',
      'unlimited',
      '--end-date',
      '2099-12-31',
    ]);
    expect(set.code, set.err.join('\n')).toBe(0);
    expect(set.out).toContain('Plan: Kontor');
    expect((await asPartner('GET', PLAN)).body).toMatchObject({
      plan_name: 'Kontor',
      seats: 10,
      contracts_per_month: 100,
      sms_per_month: null,
      end_date: '2099-12-31',
    });
    const entry = (await planEntries()).at(-1)!;
    expect(entry.actor).toBeNull();
    expect(entry.details.via).toMatch(/^cli \(os user .+\)$/);

    const show = await cli(t.dataDir, ['subscription', 'show']);
    expect(show.out).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Contracts sent in \d{4}-\d{2}: \d+ of 100$/)]),
    );
    const json = await cli(t.dataDir, ['subscription', 'show', '--json']);
    expect(JSON.parse(json.out.slice(1).join('\n'))).toMatchObject({ seats: 10, usage: { seats: { allowed: 10 } } });

    for (const args of [['--seats', 'many'], ['--end-date', '2099-13-01'], []]) {
      const refused = await cli(t.dataDir, ['subscription', 'set', ...args]);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.err.join('\n')).toMatch(/^subscription set/);
    }
    expect((await asPartner('GET', PLAN)).body.seats).toBe(10);
  });
});
