import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { expectProblem } from '../helpers/problems';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';

/** metadata on contracts (set, read, merged, bounded, filtered by) and updated_since for syncing. */
describe('contract metadata and updated_since', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const upload = async (query: string) =>
    t.api('POST', `/api/contracts?${query}`, {
      raw: { data: await makePdf({ pages: 1 }), contentType: 'application/pdf' },
    });
  const selves = async (query: string) => {
    const listed = await t.api('GET', `/api/contracts?${query}`);
    expect(listed.status, listed.text).toBe(200);
    return {
      selves: (listed.body as Array<{ self: string }>).map((contract) => contract.self),
      total: Number(listed.headers.get('pagination-items-total')),
    };
  };

  it('sets metadata on create (PDF query or JSON), returns it, merges it on update and removes a key sent empty', async () => {
    const uploaded = await upload('name=Lease&metadata[order_id]=A-1042&metadata[region]=north');
    expect(uploaded.status, uploaded.text).toBe(201);
    expect(uploaded.body.metadata).toEqual({ order_id: 'A-1042', region: 'north' });
    const made = await t.api('POST', '/api/contracts', {
      body: { name: 'From JSON', content: 'Text', metadata: { 'crm.id': 'C-7', region: 'south' } },
    });
    expect(made.status, made.text).toBe(201);
    expect((await t.api('GET', made.body.self)).body.metadata).toEqual({ 'crm.id': 'C-7', region: 'south' });

    const merged = await t.api('PUT', made.body.self, {
      body: { metadata: { region: 'west', 'crm.id': '', note_1: 'x' } },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.body.metadata).toEqual({ region: 'west', note_1: 'x' });
    // What was read can be sent back as it is.
    expect((await t.api('PUT', made.body.self, { body: merged.body })).body.metadata).toEqual(merged.body.metadata);
  });

  it('refuses metadata out of bounds, and any change once sent, and changes nothing', async () => {
    const made = await t.api('POST', '/api/contracts', { body: { content: 'Text', metadata: { keep: 'me' } } });
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v']));
    const bad = [
      { metadata: { 'has space': 'x' } },
      { metadata: { ['k'.repeat(41)]: 'x' } },
      { metadata: { ok: 'v'.repeat(501) } },
      { metadata: { ok: 5 } },
      { metadata: ['a'] },
      { metadata: { ...twenty, one_more: 'x' } },
      // 19 new keys and the one kept make 20; a 21st in the end is refused.
      { metadata: { ...Object.fromEntries(Object.entries(twenty).slice(0, 19)), k20: 'x', k21: 'y' } },
    ];
    for (const body of bad) {
      const refused = await t.api('PUT', made.body.self, { body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.type).toMatch(/validation/);
    }
    expect((await upload('metadata[bad key]=x')).status).toBe(400);
    expect((await t.api('GET', made.body.self)).body.metadata).toEqual({ keep: 'me' });
    expect(
      (
        await t.api('PUT', made.body.self, {
          body: { metadata: Object.fromEntries(Object.entries(twenty).slice(0, 19)) },
        })
      ).status,
    ).toBe(200);

    const party = await t.api('POST', `${made.body.self}/parties`, { body: { name: 'P', delivery_method: 'NONE' } });
    expect(party.status).toBe(201);
    await t.api('POST', `${made.body.self}/send`, { body: { silent: true } });
    expect((await t.api('PUT', made.body.self, { body: { metadata: { keep: 'changed' } } })).status).toBe(409);
    expect((await t.api('GET', made.body.self)).body.metadata.keep).toBe('me');
  });

  it('lists by exact metadata values (several must all match) and by updated_since', async () => {
    const first = await upload('name=Filter%201&metadata[batch]=2026-11&metadata[owner]=ann');
    const second = await upload('name=Filter%202&metadata[batch]=2026-11&metadata[owner]=bo');
    await upload('name=Filter%203&metadata[batch]=2026-12');
    expect(await selves('metadata[batch]=2026-11')).toEqual({ selves: [second.body.self, first.body.self], total: 2 });
    expect(await selves('metadata[batch]=2026-11&metadata[owner]=ann')).toEqual({
      selves: [first.body.self],
      total: 1,
    });
    expect(await selves('metadata[batch]=2026')).toEqual({ selves: [], total: 0 });
    expect(await selves('metadata[batch]=2026-11&per_page=1')).toMatchObject({ selves: [second.body.self], total: 2 });
    expect((await t.api('GET', '/api/contracts?metadata[x y]=1')).status).toBe(400);
    expect((await t.api('GET', '/api/contracts?metadata=1')).status).toBe(400);
    // The counts per status take the same filter (the admin list's tabs).
    expect((await t.api('GET', '/api/contract_counts?metadata[batch]=2026-11')).body).toEqual({
      all: 2,
      draft: 2,
      sent: 0,
      signed: 0,
      rejected: 0,
    });
    expect((await t.api('GET', '/api/contract_counts?metadata[x y]=1')).status).toBe(400);

    // An hour later, a change to the first moves its updated_time; updated_since finds it alone.
    t.clock.shift(3_600_000);
    const changed = await t.api('PUT', first.body.self, { body: { name: 'Filter 1 renamed' } });
    expect(changed.body.updated_time > second.body.updated_time).toBe(true);
    const since = encodeURIComponent(changed.body.updated_time);
    expect(await selves(`updated_since=${since}`)).toEqual({ selves: [first.body.self], total: 1 });
    expect(await selves(`updated_since=${since}&metadata[owner]=bo`)).toEqual({ selves: [], total: 0 });
    // A party added is a change of the contract too.
    t.clock.shift(7_200_000);
    const later = (await t.api('POST', `${second.body.self}/parties`, { body: { name: 'Q', delivery_method: 'NONE' } }))
      .status;
    expect(later).toBe(201);
    const after = (await t.api('GET', second.body.self)).body.updated_time;
    expect(await selves(`updated_since=${encodeURIComponent(after)}`)).toEqual({
      selves: [second.body.self],
      total: 1,
    });
    expect((await t.api('GET', '/api/contracts?updated_since=yesterday')).status).toBe(400);
    expect((await t.api('GET', '/api/contracts?updated_since=2026-02-30%2010:00:00')).status).toBe(400);
    t.clock.reset();
  });

  it('takes updated_since as an ISO 8601 time with Z or an offset, the same instant whatever the offset', async () => {
    const t0 = Date.UTC(2031, 5, 1, 12, 0, 0);
    t.clock.set(t0);
    const before = await upload('name=Early&metadata[batch]=offsets');
    t.clock.set(t0 + 3_600_000);
    const after = await upload('name=Late&metadata[batch]=offsets');
    t.clock.reset();
    expect([before.status, after.status]).toEqual([201, 201]);
    const since = async (text: string) =>
      (await selves(`metadata[batch]=offsets&updated_since=${encodeURIComponent(text)}`)).selves;
    const both = [after.body.self, before.body.self];
    // 12:30 UTC, between the two, in each form: only the later one.
    for (const text of [
      '2031-06-01T12:30:00Z',
      '2031-06-01T13:30:00+01:00',
      '2031-06-01T07:30:00-05:00',
      '2031-06-01T12:30:00.000z',
      // Today's form (office time) stays as it was.
      formatTimestamp(t0 + 1_800_000, t.server.ctx.config.timeZone),
    ])
      expect(await since(text), text).toEqual([after.body.self]);
    // A + left unescaped in the query arrives as a space, and is still read as +.
    expect((await selves('metadata[batch]=offsets&updated_since=2031-06-01T13:30:00+01:00')).selves).toEqual([
      after.body.self,
    ]);
    // Inclusive, to the millisecond.
    expect(await since('2031-06-01T11:59:59.999Z')).toEqual(both);
    expect(await since('2031-06-01T08:00:00-05:00')).toEqual([after.body.self]);
    expect(await since('2031-06-01T14:00:00.001+01:00')).toEqual([]);

    for (const text of [
      '2031-06-01T12:30:00',
      '2031-06-01T25:00:00Z',
      '2031-06-31T12:00:00Z',
      '2031-06-01T12:30:00+24:00',
      '2031-06-01T12:30:00+0100',
      '2031-06-01 12:30',
      '2031-06-01',
    ]) {
      const refused = await t.api('GET', `/api/contracts?updated_since=${encodeURIComponent(text)}`);
      expectProblem(refused, 400, 'validation-failed');
      expect(refused.body.validation_errors, text).toEqual([expect.stringMatching(/^updated_since: /)]);
    }
  });
});
