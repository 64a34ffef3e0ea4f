import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_WEBHOOK_EVENT_TYPES } from '../../shared/api/webhooks';
import {
  makeContract,
  signingClient,
  startSigningEnv,
  verifiedEvents,
  waitForMailsTo,
  linkIn,
  type SigningEnv,
} from '../helpers/signing';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

/**
 * A consumer that chose opt-in events gets them, signed and verified like the interface's three;
 * the consumer that chose nothing (startSigningEnv's) keeps exactly the interface's three.
 */
describe('opt-in webhook events', () => {
  let env: SigningEnv;
  let chooser: WebhookReceiver;
  let chooserSelf: string;

  beforeAll(async () => {
    env = await startSigningEnv();
    chooser = await startWebhookReceiver();
    chooser.respond(() => 200);
    const consumer = await env.t.api('POST', '/api/webhooks', {
      body: { url: `${chooser.url}/all`, events: ['contract.party_opened', 'contract.sent', 'contract.sent'] },
    });
    expect(consumer.status).toBe(201);
    // Each once, in the documented order.
    expect(consumer.body.events).toEqual(['contract.sent', 'contract.party_opened']);
    chooser.trust(consumer.body.key_id, consumer.body.public_key);
    chooserSelf = consumer.body.self;
  });
  afterAll(async () => {
    await env.close();
    await chooser.close();
  });

  it('lists the opt-in events of every consumer, [] for one that chose none', async () => {
    const list = await env.t.api('GET', '/api/webhooks');
    const events = (list.body as Array<{ self: string; events: string[] }>).map((consumer) => [
      consumer.self,
      consumer.events,
    ]);
    expect(events).toContainEqual([chooserSelf, ['contract.sent', 'contract.party_opened']]);
    expect(events.filter(([self]) => self !== chooserSelf).map(([, chosen]) => chosen)).toEqual([[]]);
  });

  it("refuses an unknown event, and the interface's own three (they cannot be chosen or turned off)", async () => {
    for (const events of [['contract.deleted'], ['contract.signed']]) {
      const refused = await env.t.api('PUT', chooserSelf, { body: { events } });
      expect(refused.status).toBe(400);
      expect(refused.body.validation_errors[0]).toMatch(/^events/);
    }
  });

  it('sends contract.sent and contract.party_opened only to the consumer that chose them', async () => {
    const contract = await makeContract(env.t, [{ name: 'Tenant', email: 'tenant@example.test' }]);
    expect((await env.t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const [invitation] = await waitForMailsTo(env.smtp, 'tenant@example.test', 1);
    const party = signingClient(linkIn(invitation!));
    expect((await party.open()).status).toBe(200);
    await party.state();
    const accepted = await party.accept();
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    const partyPath = contract.parties[0]!.self;
    // Deliveries run side by side: what arrives is promised, not in which order (contract.signed
    // and the last contract.party_signed are written together and sent together).
    const eventsOf = (receiver: WebhookReceiver) =>
      verifiedEvents(receiver)
        .filter((event) => event.id === contract.self)
        .sort((a, b) => a.type.localeCompare(b.type));
    await expect
      .poll(() => eventsOf(chooser))
      .toEqual([
        { type: 'contract.party_opened', id: contract.self, party: partyPath },
        { type: 'contract.party_signed', id: contract.self, party: partyPath },
        { type: 'contract.sent', id: contract.self },
        { type: 'contract.signed', id: contract.self },
      ]);
    await expect
      .poll(() => eventsOf(env.hooks))
      .toEqual([
        { type: 'contract.party_signed', id: contract.self, party: partyPath },
        { type: 'contract.signed', id: contract.self },
      ]);
  });

  it('sends contract.withdrawn and contract.reminded once chosen by an update', async () => {
    const updated = await env.t.api('PUT', chooserSelf, {
      body: { events: ['contract.reminded', 'contract.withdrawn'] },
    });
    expect(updated.body.events).toEqual(['contract.reminded', 'contract.withdrawn']);
    const contract = await makeContract(env.t, [{ name: 'Buyer', email: 'buyer@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: {} });
    expect((await env.t.api('POST', `${contract.self}/notify`, { body: {} })).status).toBe(200);
    expect((await env.t.api('POST', `${contract.self}/withdraw`, { body: { reason: 'Wrong price' } })).status).toBe(
      200,
    );
    await expect
      .poll(() =>
        verifiedEvents(chooser)
          .filter((event) => event.id === contract.self)
          .sort((a, b) => a.type.localeCompare(b.type)),
      )
      .toEqual([
        { type: 'contract.reminded', id: contract.self, party: contract.parties[0]!.self },
        { type: 'contract.withdrawn', id: contract.self },
      ]);
    expect(verifiedEvents(env.hooks).filter((event) => event.id === contract.self)).toEqual([]);
  });

  it('publishes every opt-in event in the OpenAPI webhooks section', async () => {
    const document = (await (await fetch(`${env.t.url}/api/openapi.json`)).json()) as {
      webhooks: Record<string, unknown>;
    };
    for (const type of OPTIONAL_WEBHOOK_EVENT_TYPES) expect(document.webhooks[type], type).toBeDefined();
  });
});
