import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { makeUser } from '../helpers/users';
import { rawSql } from '../../server/db/raw-sql';

describe('POST /api/contracts/{id}/duplicate', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  const all = async (path: string) => (await env.t.api('GET', `${path}?per_page=100`)).body as any[];
  const withoutIds = (rows: any[], drop: string[]) =>
    rows
      .map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !drop.includes(key))))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it('makes a new draft with the PDF, settings, parties, fields and attachments of a signed contract', async () => {
    const { t } = env;
    const original = await makeContract(
      t,
      [
        {
          name: 'Ulla',
          email: 'ulla@example.test',
          sign_order: 1,
          fields: [
            { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 640, width: 200, height: 50 },
            {
              type: 'TEXT',
              pdf_page: 2,
              pos_x: 60,
              pos_y: 100,
              width: 200,
              height: 24,
              content: 'Lgh',
              input_required: false,
            },
          ],
        },
        {
          name: 'Vera',
          email: 'vera@example.test',
          sign_order: 2,
          delivery_method: 'EMAIL_AND_SMS',
          mobile_phone: '+46701234567',
        },
      ],
      {
        party_order_defined: true,
        language: 'sv',
        email_invite_content: 'Välkommen',
        reminder_interval_days: 4,
        reminder_max_count: 2,
        expiry_warning_days: null,
      },
    );
    await t.api('POST', `${original.self}/attachments`, {
      raw: { data: 'Bilaga A', contentType: 'text/plain' },
      headers: { 'content-disposition': 'attachment; filename="bilaga.txt"' },
    });
    await t.api('POST', `${original.self}/send`);
    for (const party of original.parties) {
      const client = signingClient(party.contract_url);
      await client.state();
      expect((await client.accept({}, party.name)).status).toBe(200);
    }
    const source = (await t.api('GET', original.self)).body;
    expect(source.is_signed).toBe(true);
    const before = await contractState(t, original.id);

    const made = await t.api('POST', `${original.self}/duplicate`, { headers: { 'user-agent': 'Office browser' } });
    expect(made.status, made.text).toBe(201);
    const copy = made.body;
    expect(copy.self).not.toBe(original.self);
    const same = [
      'name',
      'language',
      'content',
      'email_invite_content',
      'party_order_defined',
      'require_auth',
      'reminder_interval_days',
      'reminder_max_count',
      'expiry_warning_days',
    ];
    for (const key of same) expect(copy[key], key).toEqual(source[key]);
    expect(copy).toMatchObject({
      sent_time: null,
      is_signed: false,
      is_answered: false,
      withdrawn_time: null,
      created_by: t.adminPath,
    });
    const pdf = async (self: string) =>
      Buffer.from(
        await (
          await fetch(new URL(`${self}/pdf`, t.url), {
            headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
          })
        ).arrayBuffer(),
      );
    expect((await pdf(copy.self)).equals(await pdf(original.self))).toBe(true);

    const parties = await all(`${copy.self}/parties`);
    const drop = [
      'self',
      'contract_url',
      'created_time',
      'created_by',
      'is_accept',
      'sign_time',
      'email_status',
      'reminders_sent',
      'party_id',
    ];
    expect(withoutIds(parties, drop)).toEqual(withoutIds(await all(`${original.self}/parties`), drop));
    for (const party of parties)
      expect(party).toMatchObject({
        is_accept: false,
        sign_time: null,
        reject_cause: null,
        reminders_sent: 0,
        email_status: { sent: false, opened: false },
      });
    const originalLinks = new Set(original.parties.map((party) => party.contract_url));
    expect(parties.some((party) => originalLinks.has(party.contract_url))).toBe(false);

    const fields = await all(`${copy.self}/annotations`);
    const copiedParties = new Set(parties.map((party) => party.self));
    expect(fields).toHaveLength(3);
    for (const field of fields) expect(copiedParties.has(field.party_id)).toBe(true);
    // What the parties filled in stays with the signed original: the copy's fields are empty.
    for (const field of fields) expect(field.value).toBeNull();
    const fieldKeys = ['self', 'party_id', 'created_time', 'value'];
    expect(withoutIds(fields, fieldKeys)).toEqual(withoutIds(await all(`${original.self}/annotations`), fieldKeys));
    const attachments = await all(`${copy.self}/attachments`);
    expect(attachments.map((row) => row.name)).toEqual(['bilaga.txt']);
    const bytes = await fetch(new URL(`${attachments[0].self}/preview`, t.url), {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(await bytes.text()).toBe('Bilaga A');

    const log = (await t.api('GET', `${copy.self}/activity_log`)).body;
    expect(log).toEqual([
      expect.objectContaining({
        event: 'contract.created',
        subject: original.self,
        details: { copy_of: original.self },
        actor_type: 'user',
        user_agent: 'Office browser',
      }),
    ]);
    // The original is untouched; the copy is a draft that can be sent.
    const after = await contractState(t, original.id);
    expect({ ...after, files: undefined, counts: undefined }).toEqual({
      ...before,
      files: undefined,
      counts: undefined,
    });
    expect((await t.api('GET', '/api/contract_counts')).body.draft).toBeGreaterThanOrEqual(1);
    expect((await t.api('POST', `${copy.self}/send`)).status).toBe(200);
  });

  it('names the copy as asked, drops a past expire_time, and refuses bad input and other users', async () => {
    const { t } = env;
    const soon = Math.ceil((Date.now() + 3_000) / 1000) * 1000;
    const draft = await makeContract(t, [{ name: 'Wilma', email: 'wilma@example.test' }], {
      expire_time: t.server.ctx.timestamp(soon),
    });
    const future = await makeContract(t, [{ name: 'Xena', email: 'xena@example.test' }], {
      expire_time: t.server.ctx.timestamp(Date.now() + 86_400_000),
    });
    const named = await t.api('POST', `${future.self}/duplicate`, { body: { name: 'Hyresavtal (kopia)' } });
    expect(named.body).toMatchObject({
      name: 'Hyresavtal (kopia)',
      expire_time: (await t.api('GET', future.self)).body.expire_time,
    });
    await expect.poll(() => Date.now() > soon, { timeout: 10_000, interval: 50 }).toBe(true);
    expect((await t.api('POST', `${draft.self}/duplicate`)).body.expire_time).toBeNull();

    const counts = () => rawSql(env.t.server.ctx.db).get('SELECT count(*) AS n FROM contracts');
    const before = await counts();
    for (const bad of [{ name: 'x'.repeat(1_001) }, { name: 7 }, { title: 'Kopia' }]) {
      expectProblem(await t.api('POST', `${draft.self}/duplicate`, { body: bad }), 400, 'validation-failed');
    }
    expectProblem(
      await t.api('POST', `${draft.self}/duplicate`, { raw: { data: '[', contentType: 'application/json' } }),
      400,
      'malformed-json',
    );
    expectProblem(await t.api('POST', '/api/contracts/999999/duplicate'), 404, 'not-found');
    const clerk = await makeUser(t, 'duplicate-clerk');
    expectProblem(await clerk.api('POST', `${draft.self}/duplicate`), 404, 'not-found');
    expect(await counts()).toEqual(before);
    const own = await clerk.api('POST', '/api/contracts', { body: { content: 'Mitt', name: 'Mitt avtal' } });
    const mine = await clerk.api('POST', `${own.body.self}/duplicate`);
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({ name: 'Mitt avtal', created_by: clerk.path });
  });
});
