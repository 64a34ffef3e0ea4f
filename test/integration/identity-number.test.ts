import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';

/**
 * identity_number and show_identity_number: with show_identity_number a party sees its own
 * identity number on its signing page and the audit trail of the signed PDF lists each party's;
 * without it the numbers are the office's alone (API and admin UI), on nothing a party sees.
 */
describe('identity numbers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ webhookFirstDelayS: 0 });
  });
  afterAll(() => t.close());

  const parties = [
    { name: 'Anna Andersson', email: 'anna@example.se', identity_number: '19800101-1234' },
    { name: 'Bo Berg', email: 'bo@example.se', identity_number: '19790202-5678' },
  ];

  async function signAll(isShown: boolean) {
    const contract = await makeContract(t, parties, { show_identity_number: isShown });
    expect((await t.api('GET', contract.self)).body.show_identity_number).toBe(isShown);
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const states = [];
    for (const [index, party] of contract.parties.entries()) {
      const client = signingClient(party.contract_url);
      const state = await client.state();
      states.push(state.body);
      expect((await client.accept({}, parties[index]?.name)).status).toBe(200);
    }
    const signed = await fetch(new URL(`${contract.self}/signed_pdf`, t.url), {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', accept: 'application/pdf' },
    });
    expect(signed.status).toBe(200);
    return { states, text: pdfText(new Uint8Array(await signed.arrayBuffer())) };
  }

  it('are shown to their own party and in the audit trail when the contract says so', async () => {
    const { states, text } = await signAll(true);
    expect(states.map((state) => state.party.identityNumber)).toEqual(['19800101-1234', '19790202-5678']);
    // Each party's page holds its own number only.
    expect(JSON.stringify(states[0])).not.toContain('19790202-5678');
    expect(JSON.stringify(states[1])).not.toContain('19800101-1234');
    expect(text).toContain('Identity number');
    expect(text).toContain('19800101-1234');
    expect(text).toContain('19790202-5678');
  });

  it('are shown to nobody but the office otherwise', async () => {
    const { states, text } = await signAll(false);
    expect(states.map((state) => state.party.identityNumber)).toEqual([null, null]);
    for (const state of states) expect(JSON.stringify(state)).not.toMatch(/19800101|19790202/);
    expect(text).not.toContain('Identity number');
    expect(text).not.toMatch(/19800101|19790202/);
    // The office still has them.
    const listed = await t.api('GET', '/api/contracts?per_page=1');
    const stored = await t.api('GET', `${listed.body[0].self}/parties`);
    expect(stored.body.map((party: { identity_number: string }) => party.identity_number).sort()).toEqual([
      '19790202-5678',
      '19800101-1234',
    ]);
  });
});
