import { describe, expect, it } from 'vitest';
import {
  linkIn,
  makeContract,
  mailsTo,
  signingClient,
  useSigningEnvWithReceiver,
  verifiedEvents,
  waitForMailsTo,
} from '../helpers/signing';
import { makeUser } from '../helpers/users';

describe('correcting a party after sending', () => {
  const suite = useSigningEnvWithReceiver('/changes', ['contract.party_changed']);

  it('fixes a mistyped e-mail: the old link is refused, the new address gets a new link that signs, PUT stays refused', async () => {
    const { t, smtp } = suite.env;
    const contract = await makeContract(t, [{ name: 'Signe Svensson', email: 'signe@exmaple.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const [first] = await waitForMailsTo(smtp, 'signe@exmaple.test', 1);
    const oldLink = linkIn(first!);
    const party = contract.parties[0]!;

    expect((await t.api('PUT', party.self, { body: { email: 'signe@example.test' } })).status).toBe(409);
    const corrected = await t.api('POST', `${party.self}/correction`, {
      body: { email: 'signe@example.test', reason: 'E-mail address mistyped' },
    });
    expect(corrected.status, corrected.text).toBe(200);
    expect(corrected.body.email).toBe('signe@example.test');
    expect(corrected.body.contract_url).not.toBe(party.contract_url);
    expect(Object.values(corrected.body.email_status).every((flag) => flag === false)).toBe(true);

    expect((await fetch(oldLink)).status).toBe(404);
    expect((await signingClient(oldLink).state()).status).toBe(404);
    const [second] = await waitForMailsTo(smtp, 'signe@example.test', 1);
    const newLink = linkIn(second!);
    expect(newLink).toBe(corrected.body.contract_url);
    expect(mailsTo(smtp, 'signe@exmaple.test')).toHaveLength(1);

    const log = await t.api('GET', `${contract.self}/activity_log?per_page=100`);
    const entry = (log.body as Array<{ event: string; actor: string; details: Record<string, string> }>).find(
      (each) => each.event === 'party.corrected',
    );
    expect(entry).toMatchObject({
      actor: t.adminPath,
      details: { reason: 'E-mail address mistyped', email: 'signe@exmaple.test → signe@example.test' },
    });

    const signer = signingClient(newLink);
    await signer.state();
    expect((await signer.accept()).status).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);
    await expect
      // Deliveries run side by side: what arrives is promised, not in which order.
      .poll(() =>
        verifiedEvents(suite.receiver)
          .filter((event) => event.id === contract.self)
          .sort((a, b) => a.type.localeCompare(b.type)),
      )
      .toEqual([
        { type: 'contract.party_changed', id: contract.self, party: party.self },
        { type: 'contract.party_signed', id: contract.self, party: party.self },
        { type: 'contract.signed', id: contract.self },
      ]);
  });

  it('refuses a correction of a party that has answered, of a draft, without a change or reason, and of another user', async () => {
    const { t } = suite.env;
    const draft = await makeContract(t, [{ name: 'Draft Party', email: 'draft@example.test' }]);
    const onDraft = await t.api('POST', `${draft.parties[0]!.self}/correction`, {
      body: { name: 'Other', reason: 'typo' },
    });
    expect(onDraft.status).toBe(409);

    const sent = await makeContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    await t.api('POST', `${sent.self}/send`, { body: {} });
    const self = sent.parties[0]!.self;
    expect(
      (await t.api('POST', `${self}/correction`, { body: { email: 'bo@example.test', reason: 'same' } })).status,
    ).toBe(400);
    expect((await t.api('POST', `${self}/correction`, { body: { email: 'x@example.test' } })).status).toBe(400);
    const smsWithoutPhone = await t.api('POST', `${self}/correction`, {
      body: { delivery_method: 'SMS', reason: 'r' },
    });
    expect(smsWithoutPhone.body.validation_errors).toEqual(['mobile_phone: is required when delivery_method is SMS']);

    const stranger = await makeUser(t, 'correction-stranger');
    expect((await stranger.api('POST', `${self}/correction`, { body: { name: 'Mallory', reason: 'x' } })).status).toBe(
      404,
    );

    const signer = signingClient(sent.parties[0]!.contract_url);
    await signer.state();
    await signer.accept();
    const afterAnswer = await t.api('POST', `${self}/correction`, { body: { name: 'Bo Eek', reason: 'late' } });
    expect(afterAnswer.status).toBe(409);
    expect((await t.api('GET', self)).body.name).toBe('Bo Ek');
  });

  it('sends no new invitation for a silent contract, but the old link still closes', async () => {
    const { t, smtp } = suite.env;
    const contract = await makeContract(t, [{ name: 'Quiet', email: 'quiet@example.test' }]);
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const party = contract.parties[0]!;
    const corrected = await t.api('POST', `${party.self}/correction`, {
      body: { email: 'quiet2@example.test', reason: 'new address' },
    });
    expect(corrected.status).toBe(200);
    expect((await fetch(party.contract_url)).status).toBe(404);
    expect((await fetch(corrected.body.contract_url)).status).toBe(200);
    expect(mailsTo(smtp, 'quiet2@example.test')).toHaveLength(0);
  });
});
