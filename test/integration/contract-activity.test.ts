import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldBody, newDraft, partyBody } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { linkOf, startTestServer, type TestServer } from '../helpers/server';

type Entry = { time: string; event: string; user_agent: string; ip_address: string };

describe('GET /api/contracts/{id}/activity_log', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const readAll = async (contractPath: string): Promise<Entry[]> => {
    const entries: Entry[] = [];
    let url: string | undefined = `${contractPath}/activity_log?per_page=4`;
    while (url) {
      const response = await t.api('GET', url);
      expect(response.status).toBe(200);
      entries.push(...response.body);
      url = linkOf(response.headers, 'next');
    }
    return entries;
  };

  it('writes one entry per change with time, user agent and IP, newest first', async () => {
    const agent = { 'user-agent': 'Integrator/2.1 (+https://example.se)' };
    const made = await t.api('POST', '/api/contracts', { body: { content: 'Hej' }, headers: agent });
    const contract = made.body.self;
    const steps: Array<[string, () => Promise<unknown>]> = [];
    const step = (event: string, action: () => Promise<{ status: number }>) => steps.push([event, action]);
    let party = '';
    let second = '';
    let field = '';
    let attachment = '';
    step('contract.updated', () => t.api('PUT', contract, { body: { name: 'Avtal' }, headers: agent }));
    step('party.added', async () => {
      const response = await t.api('POST', `${contract}/parties`, { body: partyBody(), headers: agent });
      party = response.body.self;
      return response;
    });
    step('party.added', async () => {
      const response = await t.api('POST', `${contract}/parties`, { body: partyBody({ name: 'Bo' }), headers: agent });
      second = response.body.self;
      return response;
    });
    step('party.changed', () => t.api('PUT', party, { body: { name: 'Anna B' }, headers: agent }));
    step('annotation.added', async () => {
      const response = await t.api('POST', `${contract}/annotations`, { body: fieldBody(second), headers: agent });
      field = response.body.self;
      return response;
    });
    step('annotation.changed', () => t.api('PUT', field, { body: { pos_x: 10 }, headers: agent }));
    step('attachment.added', async () => {
      const response = await t.api('POST', `${contract}/attachments`, {
        raw: { data: 'bilaga', contentType: 'text/plain' },
        headers: { ...agent, 'content-disposition': 'attachment; filename="bilaga.txt"' },
      });
      attachment = response.body.self;
      return response;
    });
    step('attachment.removed', () => t.api('DELETE', attachment, { headers: agent }));
    step('annotation.removed', () => t.api('DELETE', second, { headers: agent }));
    step('contract.sent', () => t.api('POST', `${contract}/send`, { headers: agent }));
    for (const [, action] of steps) expect(((await action()) as { status: number }).status).toBeLessThan(300);

    const entries = await readAll(contract);
    const events = entries.map((entry) => entry.event);
    // Removing a party removes its annotations first: both are logged.
    expect(events).toEqual(
      // Sending invites the remaining party: its entry carries the sender's origin too.
      [
        'contract.created',
        ...steps.map(([event]) => event).slice(0, -2),
        'annotation.removed',
        'party.removed',
        'contract.sent',
        'party.invited',
      ].reverse(),
    );
    for (const entry of entries) {
      expect(entry).toEqual({
        time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
        event: entry.event,
        user_agent: agent['user-agent'],
        ip_address: '127.0.0.1',
        sequence: expect.any(Number),
        recorded_time: entry.time,
        recorded_ms: expect.any(Number),
        // Every change here is the administrator's own, and each names what it was about.
        actor_type: 'user',
        actor: t.adminPath,
        actor_name: 'admin',
        subject: entry.event.startsWith('contract.')
          ? ''
          : expect.stringMatching(/^\/api\/contracts\/\d+\/(parties|annotations|attachments)\/\d+$/),
        details: entry.event === 'party.invited' ? expect.objectContaining({ channel: 'email' }) : expect.any(Object),
        previous_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    }
    const first = await t.api('GET', `${contract}/activity_log?per_page=4`);
    expect(first.headers.get('pagination-items-total')).toBe(String(entries.length));
    expect(first.headers.get('pagination-num-pages')).toBe(String(Math.ceil(entries.length / 4)));
  });

  it('logs nothing for refused or empty changes', async () => {
    const contract = await newDraft(t);
    const count = async () =>
      (await t.api('GET', `${contract.self}/activity_log`)).headers.get('pagination-items-total');
    expect(await count()).toBe('1');
    await t.api('PUT', contract.self, { body: { language: 'ja' } });
    await t.api('POST', `${contract.self}/parties`, { body: { name: 'No address' } });
    await t.api('PUT', contract.self, { body: {} });
    await t.api('POST', `${contract.self}/send`);
    expect(await count()).toBe('1');
  });

  it('answers 404 for an unknown contract and refuses bad page parameters', async () => {
    expectProblem(await t.api('GET', '/api/contracts/999999/activity_log'), 404, 'not-found');
    const contract = await newDraft(t);
    expectProblem(await t.api('GET', `${contract.self}/activity_log?per_page=1000`), 400, 'validation-failed');
    expectProblem(await t.api('DELETE', `${contract.self}/activity_log`), 405, 'method-not-allowed');
  });
});
