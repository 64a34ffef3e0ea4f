import { mapInOrder } from '../../server/core/in-order';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { inOrderResponder, recordTestEvent } from '../helpers/webhooks';

type LoggedEvent = { event_id: number; type: string; state: string; attempts: unknown[]; data: { id: string } };

/** The office's outage story: a consumer is disabled, contracts are signed meanwhile, nothing is lost. */
describe('events held while a webhook consumer is disabled', () => {
  let env: SigningEnv;
  let consumer: { self: string; key_id: string };
  beforeAll(async () => {
    env = await startSigningEnv({ webhookRetryScheduleS: [60], webhookTimeoutMs: 2_000 });
    consumer = (await env.t.api('GET', '/api/webhooks')).body[0];
    await env.t.api('PUT', consumer.self, { body: { contact_email: 'integrator@partner.test' } });
  });
  afterAll(async () => {
    await env?.close();
  });

  const eventsOf = async (state?: string): Promise<LoggedEvent[]> =>
    (await env.t.api('GET', `${consumer.self}/events?per_page=100${state ? `&state=${state}` : ''}`)).body;
  const waitFor = async (condition: () => Promise<boolean> | boolean) =>
    expect.poll(condition, { timeout: 20_000, interval: 25 }).toBe(true);

  it('holds the events of a contract signed during the outage and delivers them, verified and in order, after re-enabling', async () => {
    const { t, hooks } = env;
    // The receiver breaks: ten 410 Gone in a row disable the consumer.
    hooks.respond(() => 410);
    const broken = await mapInOrder(
      Array.from({ length: 10 }, (_, n) => n),
      async (n) => recordTestEvent(t.server, 'contract.signed', { id: `/api/contracts/${9000 + n}` }),
    );
    await waitFor(async () => (await t.api('GET', consumer.self)).body.disabled_time !== null);
    expect((await eventsOf('failed')).map((event) => event.event_id).sort()).toEqual(broken.sort());

    // A contract is signed by both its parties while the consumer is disabled.
    hooks.respond(() => 200);
    const before = hooks.requests.length;
    const contract = await makeContract(t, [
      { name: 'Eva Nordin', email: 'eva@nordin.test', delivery_method: 'NONE' },
      { name: 'Bo Ek', email: 'bo@ek.test', delivery_method: 'NONE' },
    ]);
    expect((await t.api('POST', `${contract.self}/send`)).status).toBe(200);
    for (const party of contract.parties) {
      const client = signingClient(party.contract_url);
      expect((await client.state()).status).toBe(200);
      expect((await client.accept({}, party.name)).status).toBe(200);
    }
    expect((await t.api('GET', contract.self)).body.is_signed).toBe(true);

    // Its three events are in the log, held, never attempted, and nothing went out.
    const held = (await eventsOf('held')).reverse();
    expect(held.map((event) => event.type)).toEqual([
      'contract.party_signed',
      'contract.party_signed',
      'contract.signed',
    ]);
    expect(held.every((event) => event.attempts.length === 0 && event.data.id === contract.self)).toBe(true);
    expect(hooks.requests.length).toBe(before);

    // Nothing can be retried while it is disabled, and the API says what to do instead.
    const single = await t.api('POST', `${consumer.self}/events/${broken[0]}/retry`);
    expect(single.status).toBe(409);
    const bulk = await t.api('POST', `${consumer.self}/events/retry`, { body: { states: ['held', 'failed'] } });
    expect(bulk.status).toBe(409);
    expect(bulk.body.detail).toContain(`POST /api/webhooks/${consumer.self.split('/').at(-1)}/enable`);

    // Enabled: the held events arrive in event order, each verified against the registered key.
    expect((await t.api('POST', `${consumer.self}/enable`)).status).toBe(200);
    await waitFor(async () => (await eventsOf('delivered')).length === 3);
    const arrived = hooks.requests.slice(before);
    expect(arrived.every((request) => request.isVerified)).toBe(true);
    expect(arrived.map((request) => request.headers['webhook-id'])).toEqual(
      held.map((event) => String(event.event_id)),
    );
    expect(arrived.map((request) => request.json.type)).toEqual([
      'contract.party_signed',
      'contract.party_signed',
      'contract.signed',
    ]);
    // The event id header is not signed over: the covered components stay those of the interface.
    expect(String(arrived[0]?.headers['signature-input'])).toMatch(
      /^sig1=\("@method" "@path" "host" "date" "content-digest"\)/,
    );
  });

  it('retries the failed events in bulk, and redelivers delivered ones only when asked', async () => {
    const { t, hooks } = env;
    const failed = await eventsOf('failed');
    expect(failed).toHaveLength(10);
    const before = hooks.requests.length;
    const bulk = await t.api('POST', `${consumer.self}/events/retry`, { body: { states: ['held', 'failed'] } });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ queued: { held: 0, failed: 10, delivered: 0 }, total: 10 });
    await waitFor(async () => (await eventsOf('failed')).length === 0 && (await eventsOf('pending')).length === 0);
    expect(hooks.requests.slice(before).every((request) => request.isVerified)).toBe(true);
    expect(hooks.requests.length - before).toBe(10);

    const again = await t.api('POST', `${consumer.self}/events/retry`, { body: { states: ['delivered'] } });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('redeliver');
    const [newest] = await eventsOf('delivered');
    const one = await t.api('POST', `${consumer.self}/events/${newest?.event_id}/retry`, { body: { redeliver: true } });
    expect(one.status).toBe(200);
    await waitFor(() => hooks.requests.length === before + 11);
    expect(hooks.requests.at(-1)?.headers['webhook-id']).toBe(String(newest?.event_id));

    // Bad bodies change nothing.
    for (const body of [{}, { states: [] }, { states: ['pending'] }, { states: ['failed'], extra: 1 }]) {
      expect((await t.api('POST', `${consumer.self}/events/retry`, { body })).status).toBe(400);
    }
    expect((await t.api('POST', '/api/webhooks/999999/events/retry', { body: { states: ['failed'] } })).status).toBe(
      404,
    );
  });

  it('drains a backlog longer than one release window in event order, each event once', async () => {
    const { t, hooks } = env;
    const id = consumer.self.split('/').at(-1);
    hooks.respond(() => 410);
    const broken = await mapInOrder(
      Array.from({ length: 10 }, (_, n) => n),
      async (n) => recordTestEvent(t.server, 'contract.signed', { id: `/api/contracts/${9100 + n}` }),
    );
    await waitFor(async () => (await t.api('GET', consumer.self)).body.disabled_time !== null);
    expect(broken).toHaveLength(10);
    // Forty events while it is disabled: five times the window the worker lets go at once.
    const held = await mapInOrder(
      Array.from({ length: 40 }, (_, n) => n),
      async (n) => recordTestEvent(t.server, 'contract.signed', { id: `/api/contracts/${9200 + n}` }),
    );
    expect((await eventsOf('held')).length).toBe(40);
    // Delivered in order: each held event goes out only once the one before it was answered.
    const { respond, early } = inOrderResponder(held);
    hooks.respond(respond);
    const before = hooks.requests.length;
    expect((await t.api('POST', `/api/webhooks/${id}/enable`)).status).toBe(200);
    await waitFor(async () => (await eventsOf('held')).length === 0 && (await eventsOf('pending')).length === 0);
    const arrived = hooks.requests.slice(before).map((request) => Number(request.headers['webhook-id']));
    expect(arrived).toEqual(held);
    expect(early).toEqual([]);
    expect(hooks.requests.slice(before).every((request) => request.isVerified)).toBe(true);
  });
});
