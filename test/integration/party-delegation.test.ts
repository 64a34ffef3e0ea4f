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

type Entry = { event: string; actor: string; subject: string; details: Record<string, string> };

/** A party hands its turn to another person from its signing link, when the contract allows it. */
describe('delegating a party from its signing link', () => {
  const suite = useSigningEnvWithReceiver('/delegations', ['contract.party_delegated']);

  const logOf = async (self: string) =>
    (await suite.env.t.api('GET', `${self}/activity_log?per_page=100`)).body as Entry[];

  it('hands the turn over: the old link is refused, the new person is invited and signs, the office and the log see who, to whom and why', async () => {
    const { t, smtp, hooks } = suite.env;
    const contract = await makeContract(t, [{ name: 'Signe Svensson', email: 'signe@example.test' }], {
      allow_delegation: true,
    });
    expect((await t.api('GET', contract.self)).body.allow_delegation).toBe(true);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const oldLink = linkIn((await waitForMailsTo(smtp, 'signe@example.test', 1))[0]!);
    const signe = signingClient(oldLink);
    expect((await signe.state()).body.party.mayDelegate).toBe(true);

    const handed = await signe.delegate({
      name: 'Bo Ek',
      email: 'bo@example.test',
      reason: 'Bo holds the power of attorney',
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    expect(handed.body).toEqual({ name: 'Bo Ek' });

    expect((await signe.state()).status).toBe(404);
    expect((await fetch(oldLink)).status).toBe(404);
    const party = (await t.api('GET', contract.parties[0]!.self)).body;
    expect(party).toMatchObject({
      name: 'Bo Ek',
      email: 'bo@example.test',
      delivery_method: 'EMAIL',
      is_accept: false,
    });
    const newLink = linkIn((await waitForMailsTo(smtp, 'bo@example.test', 1))[0]!);
    expect(newLink).toBe(party.contract_url);
    expect(newLink).not.toBe(oldLink);
    expect(mailsTo(smtp, 'signe@example.test')).toHaveLength(1);

    const entry = (await logOf(contract.self)).find((each) => each.event === 'party.delegated');
    expect(entry).toMatchObject({
      actor: contract.parties[0]!.self,
      subject: contract.parties[0]!.self,
      details: {
        from: 'Signe Svensson, signe@example.test',
        to: 'Bo Ek, bo@example.test',
        reason: 'Bo holds the power of attorney',
      },
    });

    const bo = signingClient(newLink);
    expect((await bo.state()).body.party.name).toBe('Bo Ek');
    expect((await bo.accept({}, 'Bo Ek')).status).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);
    // Deliveries run side by side: what arrives is promised, not in which order.
    await expect
      .poll(() =>
        verifiedEvents(suite.receiver)
          .filter((event) => event.id === contract.self)
          .sort((a, b) => a.type.localeCompare(b.type)),
      )
      .toEqual([
        { type: 'contract.party_delegated', id: contract.self, party: contract.parties[0]!.self },
        { type: 'contract.party_signed', id: contract.self, party: contract.parties[0]!.self },
        { type: 'contract.signed', id: contract.self },
      ]);
    // A consumer that chose nothing does not get the opt-in event.
    await expect
      .poll(() =>
        verifiedEvents(hooks)
          .filter((event) => event.id === contract.self)
          .map((event) => event.type)
          .sort(),
      )
      .toEqual(['contract.party_signed', 'contract.signed']);
  });

  it('refuses when the contract does not allow it, once answered, out of turn, with bad input, without the CSRF token or a link, and changes nothing', async () => {
    const { t } = suite.env;
    const closed = await makeContract(t, [{ name: 'Ann Closed', delivery_method: 'NONE' }]);
    expect((await t.api('GET', closed.self)).body.allow_delegation).toBe(false);
    await t.api('POST', `${closed.self}/send`, { body: { silent: true } });
    const ann = signingClient(closed.parties[0]!.contract_url);
    expect((await ann.state()).body.party.mayDelegate).toBe(false);
    const refused = await ann.delegate({ name: 'Bo Ek', email: 'bo@example.test', reason: 'Away' });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/does not allow/);
    expect((await ann.state()).status).toBe(200);

    const contract = await makeContract(
      t,
      [
        { name: 'First Party', email: 'first@example.test', delivery_method: 'NONE', sign_order: 1 },
        { name: 'Second Party', delivery_method: 'NONE', sign_order: 2 },
      ],
      { allow_delegation: true, party_order_defined: true },
    );
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const [first, second] = contract.parties.map((party) => signingClient(party.contract_url));
    await first!.state();
    await second!.state();
    const bad = [
      { name: 'Bo Ek', reason: 'Away' },
      { name: 'Bo Ek', email: 'not an address', reason: 'Away' },
      { name: 'Bo Ek', mobile_phone: '12', reason: 'Away' },
      { name: ' ', email: 'bo@example.test', reason: 'Away' },
      { name: 'Bo Ek', email: 'bo@example.test', reason: '  ' },
      { name: 'Bo Ek', email: 'bo@example.test', reason: 'Away', user: '/api/users/1' },
    ];
    for (const body of bad) expect((await first!.delegate(body)).status, JSON.stringify(body)).toBe(400);
    // The party itself, with every contact it has: refused for that reason alone.
    const itself = await first!.delegate({ name: 'First Party', email: 'first@example.test', reason: 'Me again' });
    expect(itself.status).toBe(400);
    expect(JSON.stringify(itself.body)).toContain('the new person must be someone else');
    expect((await first!.delegate({ name: 'Bo', email: 'bo@example.test', reason: 'x' }, { csrf: null })).status).toBe(
      403,
    );
    // The second party's link is out of turn, and acts only on its own party.
    expect((await second!.delegate({ name: 'Cy', email: 'cy@example.test', reason: 'Away' })).status).toBe(409);
    const stranger = contract.parties[0]!.contract_url.replace(/[A-Za-z0-9_-]{43}$/, 'A'.repeat(43));
    expect(
      (await signingClient(stranger).delegate({ name: 'Eve', email: 'eve@example.test', reason: 'x' })).status,
    ).toBe(404);
    const parties = (await t.api('GET', `${contract.self}/parties`)).body as Array<{ name: string }>;
    expect(parties.map((party) => party.name).sort()).toEqual(['First Party', 'Second Party']);
    expect((await logOf(contract.self)).some((each) => each.event === 'party.delegated')).toBe(false);

    // Answered: the link still shows the page, but the turn is not the party's to give any more.
    expect((await first!.accept({}, 'First Party')).status).toBe(200);
    expect((await first!.delegate({ name: 'Bo Ek', email: 'bo@example.test', reason: 'Late' })).status).toBe(409);
    expect((await first!.state()).body.party.mayDelegate).toBe(false);
  });

  it('refuses before the code is entered, and reaches the new person by SMS alone', async () => {
    const { t } = suite.env;
    const contract = await makeContract(t, [{ name: 'Kim Kod', email: 'kim@example.test' }], {
      allow_delegation: true,
      require_auth: 'EMAIL_CODE',
    });
    await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const kim = signingClient(contract.parties[0]!.contract_url);
    await kim.state();
    // Not identified yet (the code not entered): nothing can be handed over.
    expect((await kim.delegate({ name: 'Lo', email: 'lo@example.test', reason: 'x' })).status).toBe(403);

    const open = await makeContract(t, [{ name: 'Per Phone', delivery_method: 'NONE' }], { allow_delegation: true });
    await t.api('POST', `${open.self}/send`, { body: { silent: true } });
    const per = signingClient(open.parties[0]!.contract_url);
    await per.state();
    const handed = await per.delegate({ name: 'Ola Sms', mobile_phone: '+46 70 123 45 67', reason: 'Ola signs' });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    const party = (await t.api('GET', open.parties[0]!.self)).body;
    expect(party).toMatchObject({
      name: 'Ola Sms',
      email: '',
      mobile_phone: '+46 70 123 45 67',
      delivery_method: 'SMS',
    });
  });
});
