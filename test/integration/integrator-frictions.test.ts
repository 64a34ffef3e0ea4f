import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldBody, newDraft, partyBody } from '../helpers/contracts';
import { makePdf } from '../helpers/pdfs';
import { expectProblem } from '../helpers/problems';
import { cli, startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';

const pdfBody = async () => ({ raw: { data: await makePdf({ pages: 1 }), contentType: 'application/pdf' } });

describe('what an integrator ran into', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  const contractCount = async () =>
    Number((await t.api('GET', '/api/contracts')).headers.get('pagination-items-total'));

  it('names an uploaded PDF with ?name=, checked like any other query', async () => {
    const created = await t.api('POST', '/api/contracts?name=Hyresavtal%20Storgatan%201', await pdfBody());
    expect(created.status).toBe(201);
    expect(created.body.name).toBe('Hyresavtal Storgatan 1');
    const found = await t.api('GET', '/api/contracts?name=storgatan');
    expect(found.body.map((contract: { self: string }) => contract.self)).toContain(created.body.self);

    const before = await contractCount();
    const tooLong = await t.api('POST', `/api/contracts?name=${'x'.repeat(1_001)}`, await pdfBody());
    expectProblem(tooLong, 400, 'validation-failed');
    expect(tooLong.body.validation_errors).toEqual(['name: must be at most 1000 characters']);
    const misspelt = await t.api('POST', '/api/contracts?nmae=Hyresavtal', await pdfBody());
    expectProblem(misspelt, 400, 'validation-failed');
    expect(misspelt.body.validation_errors).toEqual(['nmae: unknown field']);
    expectProblem(await t.api('POST', '/api/contracts?name=a&name=b', await pdfBody()), 400, 'validation-failed');
    const twice = await t.api('POST', '/api/contracts?name=B', { body: { name: 'A', content: 'Text' } });
    expectProblem(twice, 400, 'validation-failed');
    expect(twice.body.validation_errors).toEqual(['name: give the name in the query or in the body, not both']);
    expect(await contractCount()).toBe(before);

    const fromJson = await t.api('POST', '/api/contracts?name=Rendered', { body: { content: 'Hello' } });
    expect(fromJson.status).toBe(201);
    expect(fromJson.body.name).toBe('Rendered');
  });

  it('says where every created resource is: Location is its self', async () => {
    const contract = await t.api('POST', '/api/contracts', await pdfBody());
    const self: string = contract.body.self;
    const party = await t.api('POST', `${self}/parties`, { body: partyBody() });
    const created = [
      contract,
      party,
      await t.api('POST', `${self}/annotations`, { body: fieldBody(party.body.self) }),
      await t.api('POST', `${self}/attachments`, {
        raw: { data: 'terms', contentType: 'text/plain' },
        headers: { 'content-disposition': 'attachment; filename="terms.txt"' },
      }),
      await t.api('POST', '/api/contract_templates', { body: { name: 'Lease' } }),
      await t.api('POST', '/api/users', { body: { username: 'located', email: 'located@office.test' } }),
      await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/hooks' } }),
    ];
    const partner = await cli(t.dataDir, ['token', 'create', '--name', 'partner', '--kind', 'partner']);
    created.push(
      await t.api('POST', '/api/partner/tokens', { body: { name: 'located' }, key: partner.out.at(-1) as string }),
    );
    for (const response of created) {
      expect(response.status, response.text).toBe(201);
      expect(response.headers.get('location')).toBe(response.body.self);
      const again = await t.api('GET', response.headers.get('location') as string, {
        key: partner.out.at(-1) as string,
      });
      expect(again.status).toBe(200);
      expect(again.body.self).toBe(response.body.self);
    }
    const signedIn = await fetch(`${t.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-api-version': '1' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    expect(signedIn.status).toBe(201);
    expect(signedIn.headers.get('location')).toBe('/api/session');
    // A refused create says nowhere.
    expect((await t.api('POST', '/api/contract_templates', { body: {} })).headers.get('location')).toBeNull();
  });

  it('asks for a party path, not a bare id, and names the form', async () => {
    const draft = await newDraft(t, 1);
    const party = await t.api('POST', `${draft.self}/parties`, { body: partyBody() });
    const bareId = await t.api('POST', `${draft.self}/annotations`, {
      body: fieldBody(party.body.self, { party_id: Number(party.body.self.split('/').at(-1)) }),
    });
    expectProblem(bareId, 400, 'validation-failed');
    expect(bareId.body.validation_errors).toEqual([
      "party_id: must be a path of the form /api/contracts/<contract_id>/parties/<party_id> (the resource's self), not a bare id",
    ]);
    const bareString = await t.api('POST', `${draft.self}/annotations`, {
      body: fieldBody(party.body.self, { party_id: '1' }),
    });
    expect(bareString.body.validation_errors).toEqual([
      'party_id: must be a party path of the form /api/contracts/<contract_id>/parties/<party_id>',
    ]);
    const userId = await t.api('POST', `${draft.self}/parties`, { body: partyBody({ user: 1 }) });
    expect(userId.body.validation_errors).toEqual([
      "user: must be a path of the form /api/users/<id> (the resource's self), not a bare id",
    ]);
    expect(
      (await t.api('POST', `${draft.self}/annotations`, { body: fieldBody(party.body.self, { party_id: undefined }) }))
        .body.validation_errors,
    ).toEqual(['party_id: is required']);
  });

  it('shows what a party filled into each field, read-only and null until it signed', async () => {
    const fields = [
      { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 600, width: 200, height: 50 },
      { type: 'NAME', pdf_page: 1, pos_x: 60, pos_y: 540, width: 200, height: 30 },
      { type: 'TEXT', pdf_page: 1, pos_x: 60, pos_y: 480, width: 200, height: 30, content: 'Prefilled' },
      { type: 'CHECKBOX', pdf_page: 1, pos_x: 60, pos_y: 440, width: 20, height: 20, input_required: false },
      { type: 'DATE', pdf_page: 1, pos_x: 60, pos_y: 400, width: 120, height: 30 },
    ];
    const contract = await makeContract(t, [
      { name: 'Anna Andersson', email: 'anna@example.se', fields },
      {
        name: 'Office',
        email: 'office@office.test',
        user: t.adminPath,
        fields: [fields[0] as Record<string, unknown>],
      },
    ]);
    const values = async () =>
      (
        (await t.api('GET', `${contract.self}/annotations?per_page=100`)).body as Array<{
          type: string;
          party_id: string;
          value: unknown;
        }>
      ).reverse();
    expect((await values()).map((annotation) => annotation.value)).toEqual([null, null, null, null, null, null]);
    const [annotation] = (await t.api('GET', `${contract.self}/annotations`)).body;
    const put = await t.api('PUT', annotation.self, { body: { value: 'smuggled', pos_x: 61 } });
    expect(put.status).toBe(200);
    expect(put.body.value).toBeNull();

    expect((await t.api('POST', `${contract.self}/send`, { body: { auto_sign: true, silent: true } })).status).toBe(
      200,
    );
    const afterAutoSign = await values();
    expect(
      afterAutoSign
        .filter((annotation) => annotation.party_id === contract.parties[1]?.self)
        .map((annotation) => annotation.value),
    ).toEqual(['Office']);
    expect(
      afterAutoSign
        .filter((annotation) => annotation.party_id === contract.parties[0]?.self)
        .every((annotation) => annotation.value === null),
    ).toBe(true);

    const anna = signingClient(contract.parties[0]?.contract_url as string);
    const state = (await anna.state()).body as { fields: Array<{ id: number; type: string }> };
    const idOf = (type: string) => String(state.fields.find((field) => field.type === type)?.id);
    const accepted = await anna.accept(
      { [idOf('TEXT')]: 'Typed by Anna', [idOf('CHECKBOX')]: false, [idOf('NAME')]: 'Anna A.' },
      'Anna Andersson',
    );
    expect(accepted.status).toBe(200);
    const signed = await values();
    const today = (await t.api('GET', contract.self)).body.sent_time.slice(0, 10);
    expect(
      signed
        .filter((annotation) => annotation.party_id === contract.parties[0]?.self)
        .map((annotation) => [annotation.type, annotation.value]),
    ).toEqual([
      ['SIGNATURE', 'Anna Andersson'],
      ['NAME', 'Anna A.'],
      ['TEXT', 'Typed by Anna'],
      ['CHECKBOX', false],
      ['DATE', today],
    ]);
    expect((await t.api('GET', contract.self)).body.is_signed).toBe(true);
  });
});
