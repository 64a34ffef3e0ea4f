import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMINDER_QUEUE } from '../../server/signing/plan-reminders';
import { contractState } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import {
  makeContract,
  mailsTo,
  signingClient,
  startSigningEnv,
  verifiedEvents,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';
import { makeUser } from '../helpers/users';

describe('POST /api/contracts/{id}/withdraw', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('closes the links at once, tells every party that had it, stops reminders, and keeps the status sent', async () => {
    const { t, smtp, hooks } = env;
    const contract = await makeContract(
      t,
      [
        { name: 'Maja', email: 'maja@example.test', sign_order: 1 },
        { name: 'Nils', email: 'nils@example.test', sign_order: 1 },
        { name: 'Olof', email: 'olof@example.test', sign_order: 2 },
      ],
      { party_order_defined: true },
    );
    await t.api('POST', `${contract.self}/send`);
    const maja = signingClient(contract.parties[0]!.contract_url);
    await maja.state();
    expect((await maja.accept({}, 'Maja')).status).toBe(200);
    await waitForMailsTo(smtp, 'nils@example.test', 1);
    const nils = signingClient(contract.parties[1]!.contract_url);
    expect((await nils.state()).body.stage).toBe('ready');
    expect((await t.api('GET', contract.self)).body.next_reminder_time).not.toBeNull();
    // Maja's signature has reached the webhook receiver before the count is taken.
    await expect.poll(() => verifiedEvents(hooks).some((event) => event.type === 'contract.party_signed')).toBe(true);
    const eventsBefore = verifiedEvents(hooks).length;

    const withdrawn = await t.api('POST', `${contract.self}/withdraw`, {
      body: { reason: 'Fel version av avtalet' },
      headers: { 'user-agent': 'Office browser' },
    });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    expect(withdrawn.body).toMatchObject({
      withdrawn_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      withdrawn_by: t.adminPath,
      withdraw_reason: 'Fel version av avtalet',
      is_answered: false,
      is_signed: false,
      is_rejected: false,
      next_reminder_time: null,
    });
    expect(await t.server.ctx.repos.jobs.plannedAt(REMINDER_QUEUE, contract.id)).toBeUndefined();

    // The links answer at once: the page says so, and nothing can be answered or seen.
    expect((await nils.state()).body).toMatchObject({ stage: 'withdrawn', fields: [], attachments: [] });
    expectProblem(await nils.accept({}, 'Nils'), 409, 'contract-state');
    expectProblem(await nils.reject('Too late'), 409, 'contract-state');
    expectProblem(await nils.document(), 409, 'contract-state');
    expectProblem(await t.api('POST', `${contract.self}/notify`), 409, 'contract-state');
    expectProblem(await t.api('POST', `${contract.self}/withdraw`), 409, 'contract-state');
    expectProblem(
      await t.api('PUT', `${contract.self}/reminders`, { body: { reminder_max_count: 1 } }),
      409,
      'contract-state',
    );

    // Those who had the contract are told, with the reason; the one not yet in turn never had it.
    const [, majaNotice] = await waitForMailsTo(smtp, 'maja@example.test', 2);
    expect(majaNotice?.mail.subject).toMatch(/ withdrew “Hyresavtal Storgatan 1”$/);
    expect(majaNotice?.mail.text).toContain('Reason: Fel version av avtalet');
    await waitForMailsTo(smtp, 'nils@example.test', 2);
    expect(mailsTo(smtp, 'olof@example.test')).toEqual([]);

    const log = ((await t.api('GET', `${contract.self}/activity_log?per_page=100`)).body as any[]).reverse();
    const entry = log.find((row) => row.event === 'contract.withdrawn');
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor: t.adminPath,
      actor_name: 'admin',
      details: { reason: 'Fel version av avtalet' },
      user_agent: 'Office browser',
    });
    expect(log.filter((row) => row.event === 'party.withdrawal_sent').map((row) => row.details.channel)).toEqual([
      'email',
      'email',
    ]);

    const listed = await t.api('GET', '/api/contracts?status=sent&per_page=100');
    expect(listed.body.map((row: { self: string }) => row.self)).toContain(contract.self);
    // No webhook event beyond the interface's three: nothing for a withdrawal.
    await expect.poll(async () => t.server.ctx.repos.outbox.countPending(), { timeout: 10_000, interval: 50 }).toBe(0);
    expect(verifiedEvents(hooks).slice(eventsBefore)).toEqual([]);
  });

  it('tells nobody with silent, and refuses drafts, answered contracts, bad bodies and other users', async () => {
    const { t, smtp } = env;
    const quiet = await makeContract(t, [{ name: 'Pia', email: 'pia@example.test' }]);
    await t.api('POST', `${quiet.self}/send`);
    await waitForMailsTo(smtp, 'pia@example.test', 1);
    // The SMTP server has the mail before the outbox records it as sent: wait for the record too.
    await expect.poll(async () => t.server.ctx.repos.outbox.countPending(), { timeout: 10_000, interval: 50 }).toBe(0);
    const before = await contractState(t, quiet.id);
    for (const bad of [{ reason: 'x'.repeat(1_001) }, { silent: 'yes' }, { reason: 'ok', why: 'extra' }]) {
      expectProblem(await t.api('POST', `${quiet.self}/withdraw`, { body: bad }), 400, 'validation-failed');
    }
    expectProblem(
      await t.api('POST', `${quiet.self}/withdraw`, { raw: { data: '{"reason":', contentType: 'application/json' } }),
      400,
      'malformed-json',
    );
    const clerk = await makeUser(t, 'withdraw-clerk');
    expectProblem(await clerk.api('POST', `${quiet.self}/withdraw`), 404, 'not-found');
    expect(await contractState(t, quiet.id)).toEqual(before);

    const silent = await t.api('POST', `${quiet.self}/withdraw`, { body: { silent: true } });
    expect(silent.body).toMatchObject({ withdrawn_time: expect.any(String), withdraw_reason: null });
    const log = (await t.api('GET', `${quiet.self}/activity_log?per_page=100`)).body as any[];
    expect(log.filter((row) => row.event === 'party.withdrawal_sent').map((row) => row.details)).toEqual([
      { silent: 'true', party_name: 'Pia' },
    ]);
    await expect.poll(async () => t.server.ctx.repos.outbox.countPending(), { timeout: 10_000, interval: 50 }).toBe(0);
    expect(mailsTo(smtp, 'pia@example.test')).toHaveLength(1);

    const draft = await makeContract(t, [{ name: 'Rut', email: 'rut@example.test' }]);
    expectProblem(await t.api('POST', `${draft.self}/withdraw`), 409, 'contract-state');
    const answered = await makeContract(t, [{ name: 'Sam', email: 'sam@example.test' }]);
    await t.api('POST', `${answered.self}/send`);
    const sam = signingClient(answered.parties[0]!.contract_url);
    await sam.state();
    await sam.reject('No');
    expectProblem(await t.api('POST', `${answered.self}/withdraw`), 409, 'contract-state');
    expectProblem(await t.api('POST', '/api/contracts/999999/withdraw'), 404, 'not-found');

    // An ordinary user withdraws their own contract.
    const own = await clerk.api('POST', '/api/contracts', { body: { content: 'Eget avtal', name: 'Eget' } });
    await clerk.api('POST', `${own.body.self}/parties`, { body: { name: 'Tea', email: 'tea@example.test' } });
    await clerk.api('POST', `${own.body.self}/send`);
    const mine = await clerk.api('POST', `${own.body.self}/withdraw`, { body: { reason: 'Ångrat' } });
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body.withdrawn_by).toBe(clerk.path);
  });
});
