import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_QUEUE } from '../../server/signing/plan-reminders';
import { runReminders } from '../../server/signing/run-reminders';
import { parseTimestamp } from '../../shared/time';
import { contractState } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import {
  makeContract,
  mailsTo,
  signingClient,
  startSigningEnv,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';
import { makeUser } from '../helpers/users';
import { rawSql } from '../../server/db/raw-sql';

/** A reminder "day" is one second here (REMINDER_DAY_S), so that schedules of days run in seconds. */
const DAY_MS = 1_000;

/** A party's client that has read its page first (the answers need the page's CSRF token). */
function answerAs(link: string) {
  const client = signingClient(link);
  const ready = client.state();
  return {
    accept: async (fields: Record<string, string | boolean>, name: string) => (
      await ready,
      client.accept(fields, name)
    ),
    reject: async (cause: string) => (await ready, client.reject(cause)),
  };
}

describe('automatic reminders and the expiry warning', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv({ reminderDayMs: DAY_MS });
  });
  afterAll(() => env.close());

  const contractOf = async (self: string) => (await env.t.api('GET', self)).body;
  const subjects = (address: string) => mailsTo(env.smtp, address).map((mail) => mail.mail.subject ?? '');
  const planned = async (id: number) => env.t.server.ctx.repos.jobs.plannedAt(REMINDER_QUEUE, id);
  const log = async (self: string) =>
    ((await env.t.api('GET', `${self}/activity_log?per_page=100`)).body as any[]).reverse();
  const outboxCount = async (id: number, purpose: string) =>
    (
      (await rawSql(env.t.server.ctx.db).get(
        'SELECT count(*) AS n FROM outbox_messages WHERE contract_id = ? AND purpose = ?',
        id,
        purpose,
      )) as { n: number }
    ).n;

  it('gives new contracts the office default, which an administrator changes; bad values change nothing', async () => {
    const { t } = env;
    expect((await t.api('GET', '/api/settings/reminders')).body).toEqual({
      reminder_interval_days: 3,
      reminder_max_count: 3,
      expiry_warning_days: 2,
    });
    const before = await makeContract(t, [{ name: 'Före', email: 'fore@example.test' }]);
    for (const bad of [
      { reminder_interval_days: 0 },
      { reminder_max_count: 21 },
      { expiry_warning_days: 'two' },
      { reminder_interval_days: 1.5 },
      { every: 3 },
    ]) {
      expectProblem(await t.api('PUT', '/api/settings/reminders', { body: bad }), 400, 'validation-failed');
    }
    const saved = await t.api('PUT', '/api/settings/reminders', {
      body: { reminder_interval_days: 7, expiry_warning_days: null },
    });
    expect(saved.body).toEqual({ reminder_interval_days: 7, reminder_max_count: 3, expiry_warning_days: null });
    const clerk = await makeUser(t, 'reminder-clerk');
    expectProblem(await clerk.api('GET', '/api/settings/reminders'), 403, 'forbidden');
    expectProblem(
      await clerk.api('PUT', '/api/settings/reminders', { body: { reminder_max_count: 1 } }),
      403,
      'forbidden',
    );

    const after = await makeContract(t, [{ name: 'Efter', email: 'efter@example.test' }]);
    expect(await contractOf(after.self)).toMatchObject({
      reminder_interval_days: 7,
      reminder_max_count: 3,
      expiry_warning_days: null,
      next_reminder_time: null,
    });
    expect(await contractOf(before.self)).toMatchObject({
      reminder_interval_days: 3,
      reminder_max_count: 3,
      expiry_warning_days: 2,
    });
    // A draft takes its own choice in the ordinary PUT, and JSON creation takes it too.
    expect(
      (await t.api('PUT', after.self, { body: { reminder_interval_days: 2, reminder_max_count: 1 } })).body,
    ).toMatchObject({ reminder_interval_days: 2, reminder_max_count: 1 });
    const json = await t.api('POST', '/api/contracts', { body: { content: 'Text', reminder_interval_days: null } });
    expect(json.body).toMatchObject({ reminder_interval_days: null, reminder_max_count: 3, expiry_warning_days: null });
    await t.api('PUT', '/api/settings/reminders', { body: { reminder_interval_days: 3, expiry_warning_days: 2 } });
  });

  it('reminds every party whose answer is awaited every interval, at most the chosen count, then stops', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Alma', email: 'alma@example.test' },
        { name: 'Bengt', email: 'bengt@example.test' },
        { name: 'Cilla', email: 'cilla@example.test', sign_type: 'VIEWER' },
        { name: 'Dan', delivery_method: 'NONE' },
      ],
      { reminder_interval_days: 1, reminder_max_count: 2, expiry_warning_days: null },
    );
    const sent = await t.api('POST', `${contract.self}/send`);
    expect(sent.body.next_reminder_time).not.toBeNull();
    const sentAt = parseTimestamp(sent.body.sent_time, t.server.ctx.config.timeZone) as number;
    expect(parseTimestamp(sent.body.next_reminder_time, t.server.ctx.config.timeZone)).toBeGreaterThanOrEqual(
      sentAt + DAY_MS - 1_000,
    );

    for (const address of ['alma@example.test', 'bengt@example.test']) await waitForMailsTo(smtp, address, 3);
    await expect
      .poll(async () => (await contractOf(contract.self)).next_reminder_time, { timeout: 15_000, interval: 50 })
      .toBeNull();
    expect(await planned(contract.id)).toBeUndefined();
    await expect.poll(async () => t.server.ctx.repos.outbox.countPending(), { timeout: 15_000, interval: 50 }).toBe(0);
    expect(subjects('alma@example.test')).toEqual([
      expect.stringContaining('to sign'),
      expect.stringMatching(/^Reminder: /),
      expect.stringMatching(/^Reminder: /),
    ]);
    expect(subjects('bengt@example.test').filter((subject) => subject.startsWith('Reminder'))).toHaveLength(2);
    // The viewer does not answer, and the party without delivery hears nothing: neither is reminded.
    expect(subjects('cilla@example.test').filter((subject) => subject.startsWith('Reminder'))).toEqual([]);
    const parties = (await t.api('GET', `${contract.self}/parties`)).body as any[];
    expect(Object.fromEntries(parties.map((party) => [party.name, party.reminders_sent]))).toEqual({
      Alma: 2,
      Bengt: 2,
      Cilla: 0,
      Dan: 0,
    });

    const reminded = (await log(contract.self)).filter((entry) => entry.event === 'party.reminded');
    expect(reminded).toHaveLength(4);
    for (const entry of reminded) {
      expect(entry).toMatchObject({
        actor_type: 'appliance',
        actor: null,
        actor_name: 'SignDesk',
        details: expect.objectContaining({ channel: 'email' }),
        user_agent: '',
        ip_address: '',
      });
    }
    expect(new Set(reminded.map((entry) => entry.subject))).toEqual(
      new Set(parties.filter((party) => party.name === 'Alma' || party.name === 'Bengt').map((party) => party.self)),
    );
  });

  it('reminds only the party in turn, the next one once it is invited, and stops when the contract is signed', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Först', email: 'forst@example.test', sign_order: 1 },
        { name: 'Sist', email: 'sist@example.test', sign_order: 2 },
      ],
      { party_order_defined: true, reminder_interval_days: 1, reminder_max_count: 1, expiry_warning_days: null },
    );
    await t.api('POST', `${contract.self}/send`);
    const [, reminder] = await waitForMailsTo(smtp, 'forst@example.test', 2);
    expect(reminder?.mail.subject).toMatch(/^Reminder: /);
    await expect
      .poll(async () => (await contractOf(contract.self)).next_reminder_time, { timeout: 15_000, interval: 50 })
      .toBeNull();
    expect(mailsTo(smtp, 'sist@example.test')).toEqual([]);

    expect((await answerAs(contract.parties[0]!.contract_url).accept({}, 'Först')).status).toBe(200);
    const [invitation, second] = await waitForMailsTo(smtp, 'sist@example.test', 2);
    expect([invitation?.mail.subject, second?.mail.subject]).toEqual([
      expect.stringContaining('to sign'),
      expect.stringMatching(/^Reminder: /),
    ]);
    await expect
      .poll(async () => (await contractOf(contract.self)).next_reminder_time, { timeout: 15_000, interval: 50 })
      .toBeNull();

    // A reminder by hand counts as contact: the next automatic one is an interval later.
    await t.api('PUT', `${contract.self}/reminders`, { body: { reminder_interval_days: 30, reminder_max_count: 5 } });
    const notified = await t.api('POST', `${contract.self}/notify`);
    const nextAt = parseTimestamp(notified.body.next_reminder_time, t.server.ctx.config.timeZone) as number;
    expect(nextAt).toBeGreaterThan(Date.now() + 25 * DAY_MS);
    expect((await answerAs(contract.parties[1]!.contract_url).accept({}, 'Sist')).status).toBe(200);
    expect(await contractOf(contract.self)).toMatchObject({ is_signed: true, next_reminder_time: null });
    expect(await planned(contract.id)).toBeUndefined();
    const events = (await log(contract.self)).map((entry) => `${entry.event} ${entry.actor_type}`);
    expect(events.filter((event) => event.startsWith('party.reminded'))).toEqual([
      'party.reminded appliance',
      'party.reminded appliance',
      'party.reminded user',
    ]);
  });

  it('warns the awaited parties once before expire_time, and plans nothing once the links are closed', async () => {
    const { t, smtp } = env;
    const zone = t.server.ctx.config.timeZone;
    const expireAt = Math.ceil((Date.now() + 60 * DAY_MS) / 1_000) * 1_000;
    const contract = await makeContract(
      t,
      [
        { name: 'Greta', email: 'greta@example.test' },
        { name: 'Hugo', email: 'hugo@example.test' },
      ],
      {
        expire_time: env.t.server.ctx.timestamp(expireAt),
        reminder_interval_days: null,
        expiry_warning_days: 45,
        language: 'sv',
      },
    );
    const sent = await t.api('POST', `${contract.self}/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.expiry_warning_time).toBe(t.server.ctx.timestamp(expireAt - 45 * DAY_MS));
    // Changed after the send: due a moment from now (still after the send).
    const days = Math.floor((expireAt - Date.now()) / DAY_MS) - 1;
    const changed = await t.api('PUT', `${contract.self}/reminders`, { body: { expiry_warning_days: days } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.expiry_warning_time).toBe(t.server.ctx.timestamp(expireAt - days * DAY_MS));

    const [, warning] = await waitForMailsTo(smtp, 'greta@example.test', 2);
    // The expiry in the party's own language's form, in the office's time zone.
    const expiry = new Intl.DateTimeFormat('sv', {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'Europe/Stockholm',
    }).format(expireAt);
    expect(warning?.mail.subject).toBe(`”Hyresavtal Storgatan 1” kan skrivas under till ${expiry} (Europe/Stockholm)`);
    await waitForMailsTo(smtp, 'hugo@example.test', 2);
    const after = await contractOf(contract.self);
    expect(after).toMatchObject({
      expiry_warning_time: null,
      expiry_warned_time: expect.stringMatching(/^\d{4}-/),
      next_reminder_time: null,
    });
    expect(await planned(contract.id)).toBeUndefined();
    const warned = (await log(contract.self)).filter((entry) => entry.event === 'party.expiry_warned');
    expect(warned.map((entry) => [entry.actor_type, entry.details.channel])).toEqual([
      ['appliance', 'email'],
      ['appliance', 'email'],
    ]);
    expect(parseTimestamp(after.expiry_warned_time, zone)).toBeLessThan(expireAt);
    // Turning the warning on again does not warn twice.
    await t.api('PUT', `${contract.self}/reminders`, { body: { expiry_warning_days: days - 1 } });
    expect((await contractOf(contract.self)).expiry_warning_time).toBeNull();
    expect(await outboxCount(contract.id, 'expiry-warning')).toBe(2);
  });

  it('sends nothing twice when a reminder job runs again after a crash', async () => {
    const { t, smtp } = env;
    const { ctx } = t.server;
    const contract = await makeContract(t, [{ name: 'Ivar', email: 'ivar@example.test' }], {
      reminder_interval_days: 1,
      reminder_max_count: 1,
      expiry_warning_days: null,
    });
    await t.api('POST', `${contract.self}/send`);
    await waitForMailsTo(smtp, 'ivar@example.test', 2);
    const jobsOf = async () =>
      (
        (await rawSql(ctx.db).get(
          'SELECT count(*) AS n FROM jobs WHERE queue = ? AND ref_id = ?',
          REMINDER_QUEUE,
          contract.id,
        )) as { n: number }
      ).n;
    await expect.poll(jobsOf, { timeout: 15_000, interval: 50 }).toBe(0);
    const before = await contractState(t, contract.id);
    // The crash: the job committed its reminder but died before removing its row, which is
    // claimed again once its lease runs out. The second run finds nothing due.
    await ctx.repos.jobs.enqueue(REMINDER_QUEUE, contract.id, Date.now(), Date.now());
    await expect.poll(jobsOf, { timeout: 15_000, interval: 50 }).toBe(0);
    expect(await runReminders(ctx, contract.id)).toEqual({ kind: 'done' });
    expect(await contractState(t, contract.id)).toEqual(before);
    // A run long after the next due time, twice in a row: the first reminds, the second finds nothing due.
    await t.api('PUT', `${contract.self}/reminders`, { body: { reminder_max_count: 2, reminder_interval_days: 30 } });
    const later = { ...ctx, now: () => Date.now() + 31 * DAY_MS };
    await runReminders(later, contract.id);
    await runReminders(later, contract.id);
    expect(await outboxCount(contract.id, 'reminder')).toBe(2);
    expect((await contractState(t, contract.id)).activity).toHaveLength((before.activity as unknown[]).length + 2);
  });

  it('changes a sent contract’s reminders through /reminders only, with good and bad input, for its author only', async () => {
    const { t } = env;
    const clerk = await makeUser(t, 'reminder-author');
    const mine = await clerk.api('POST', '/api/contracts', { body: { content: 'Avtal', name: 'Mitt avtal' } });
    expect(mine.status).toBe(201);
    await clerk.api('POST', `${mine.body.self}/parties`, { body: { name: 'Jonna', email: 'jonna@example.test' } });
    expect((await clerk.api('POST', `${mine.body.self}/send`)).status).toBe(200);
    expectProblem(
      await clerk.api('PUT', mine.body.self, { body: { reminder_interval_days: 5 } }),
      409,
      'contract-state',
    );
    const changed = await clerk.api('PUT', `${mine.body.self}/reminders`, {
      body: { reminder_interval_days: 5, reminder_max_count: 1 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      reminder_interval_days: 5,
      reminder_max_count: 1,
      next_reminder_time: expect.stringMatching(/^\d{4}-/),
    });
    const id = Number(mine.body.self.split('/').at(-1));
    const before = await contractState(t, id);
    for (const bad of [
      { reminder_interval_days: -1 },
      { reminder_max_count: 0 },
      { expiry_warning_days: 366 },
      { reminder_interval_days: '5' },
      { sent: true },
    ]) {
      expectProblem(await clerk.api('PUT', `${mine.body.self}/reminders`, { body: bad }), 400, 'validation-failed');
    }
    expectProblem(
      await clerk.api('PUT', `${mine.body.self}/reminders`, { raw: { data: '{', contentType: 'application/json' } }),
      400,
      'malformed-json',
    );
    expect(await contractState(t, id)).toEqual(before);

    // Someone else's contract is not there for an ordinary user; an administrator may change it.
    const others = await makeContract(t, [{ name: 'Kim', email: 'kim@example.test' }]);
    expectProblem(
      await clerk.api('PUT', `${others.self}/reminders`, { body: { reminder_max_count: 1 } }),
      404,
      'not-found',
    );
    expect(
      (await t.api('PUT', `${mine.body.self}/reminders`, { body: { reminder_interval_days: null } })).body
        .next_reminder_time,
    ).toBeNull();
    expectProblem(await t.api('PUT', '/api/contracts/999999/reminders', { body: {} }), 404, 'not-found');

    // Turned off in a silent send; answered contracts take no change.
    const silent = await makeContract(t, [{ name: 'Lo', email: 'lo@example.test' }]);
    const quiet = await t.api('POST', `${silent.self}/send`, { body: { silent: true } });
    expect(quiet.body).toMatchObject({
      reminder_interval_days: null,
      expiry_warning_days: null,
      next_reminder_time: null,
    });
    expect((await answerAs(silent.parties[0]!.contract_url).reject('Nej tack')).status).toBe(200);
    expectProblem(
      await t.api('PUT', `${silent.self}/reminders`, { body: { reminder_interval_days: 1 } }),
      409,
      'contract-state',
    );
  });
});
