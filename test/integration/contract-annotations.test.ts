import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState, fieldBody, newDraft, partyBody } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';

const A4 = { width: 595.28, height: 841.89 };

describe('contract annotations', () => {
  let t: TestServer;
  let contract: { self: string; id: number };
  let party: string;
  beforeAll(async () => {
    t = await startTestServer();
    contract = await newDraft(t, 2);
    party = (await t.api('POST', `${contract.self}/parties`, { body: partyBody() })).body.self;
  });
  afterAll(() => t.close());

  it('adds a field with its geometry and defaults', async () => {
    const response = await t.api('POST', `${contract.self}/annotations`, {
      body: fieldBody(party, { pdf_page: 2, pos_x: 10.5, pos_y: 20.25 }),
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      party_id: party,
      pdf_page: 2,
      pos_x: 10.5,
      pos_y: 20.25,
      width: 200,
      height: 50,
      type: 'SIGNATURE',
      content: '',
      input_required: true,
      render_when_signed: true,
      created_by: t.adminPath,
    });
    expect(response.body.self).toMatch(new RegExp(`^${contract.self}/annotations/\\d+$`));
    expect((await t.api('GET', response.body.self)).body).toEqual(response.body);
  });

  it('takes a box that touches the page edges exactly', async () => {
    const body = fieldBody(party, {
      pos_x: 0,
      pos_y: 0,
      width: A4.width,
      height: A4.height,
      type: 'TEXT',
      content: 'Hela sidan',
    });
    expect((await t.api('POST', `${contract.self}/annotations`, { body })).status).toBe(201);
    const corner = fieldBody(party, {
      pdf_page: 2,
      pos_x: A4.width - 30,
      pos_y: A4.height - 10,
      width: 30,
      height: 10,
      type: 'CHECKBOX',
    });
    expect((await t.api('POST', `${contract.self}/annotations`, { body: corner })).status).toBe(201);
  });

  it('refuses a box outside the page and a page past the last, changing nothing', async () => {
    const before = await contractState(t, contract.id);
    const lines = async (overrides: Record<string, unknown>) => {
      const response = await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(party, overrides) });
      expectProblem(response, 400, 'validation-failed');
      return response.body.validation_errors;
    };
    expect(await lines({ pos_x: 400, width: 200 })).toEqual([
      'pos_x: pos_x + width is 600, past the width of page 1 (595.28 points)',
    ]);
    expect(await lines({ pos_y: 800, height: 50 })).toEqual([
      'pos_y: pos_y + height is 850, past the height of page 1 (841.89 points)',
    ]);
    expect(await lines({ pdf_page: 3 })).toEqual(['pdf_page: must be a page of the PDF, 1 to 2']);
    expect(await lines({ pdf_page: 0 })).toEqual(['pdf_page: must be at least 1']);
    expect(await lines({ pos_x: -1 })).toEqual(['pos_x: must be at least 0']);
    expect(await lines({ width: 0 })).toEqual(['width: must be greater than 0']);
    expect(await lines({ height: -5 })).toEqual(['height: must be greater than 0']);
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('checks geometry against the pages of this contract, not another', async () => {
    const letterLandscape = await t.api('POST', '/api/contracts', {
      raw: { data: await makePdf({ pages: 1, size: [792, 612] }), contentType: 'application/pdf' },
    });
    const wide = letterLandscape.body.self;
    const wideParty = (await t.api('POST', `${wide}/parties`, { body: partyBody() })).body.self;
    const box = { pos_x: 600, pos_y: 500, width: 150, height: 100 };
    expect((await t.api('POST', `${wide}/annotations`, { body: fieldBody(wideParty, box) })).status).toBe(201);
    expect((await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(party, box) })).status).toBe(400);
  });

  it('refuses a party of another contract, and bad input of every kind, changing nothing', async () => {
    const other = await newDraft(t);
    const otherParty = (await t.api('POST', `${other.self}/parties`, { body: partyBody() })).body.self;
    const before = await contractState(t, contract.id);
    const post = async (body: unknown) => {
      const response = await t.api('POST', `${contract.self}/annotations`, { body });
      expectProblem(response, 400, 'validation-failed');
      return response.body.validation_errors.sort();
    };
    expect(await post(fieldBody(otherParty))).toEqual([`party_id: ${otherParty} is not a party of this contract`]);
    const fakeParty = `${contract.self}/parties/999999`;
    expect(await post(fieldBody(fakeParty))).toEqual([`party_id: ${fakeParty} is not a party of this contract`]);
    expect(await post({})).toEqual(
      [
        'height: is required',
        'party_id: is required',
        'pdf_page: is required',
        'pos_x: is required',
        'pos_y: is required',
        'type: is required',
        'width: is required',
      ].sort(),
    );
    expect(
      await post(
        fieldBody('/api/users/1', {
          type: 'STAMP',
          pdf_page: '1',
          pos_x: 'left',
          content: 'x'.repeat(100_001),
          input_required: 'yes',
          note: 1,
        }),
      ),
    ).toEqual(
      [
        'content: must be at most 100000 characters',
        'input_required: must be true or false',
        'note: unknown field',
        'party_id: must be a party path of the form /api/contracts/<contract_id>/parties/<party_id>',
        'pdf_page: must be a number',
        'pos_x: must be a number',
        'type: must be one of SIGNATURE, INITIALS, NAME, DATE, TEXT, CHECKBOX, NUMBER, EMAIL, DROPDOWN, RADIO, ATTACHMENT',
      ].sort(),
    );
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('changes a field, re-checking the merged box', async () => {
    const second = (await t.api('POST', `${contract.self}/parties`, { body: partyBody({ name: 'Bo' }) })).body.self;
    const field = (await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(party) })).body;
    const moved = await t.api('PUT', field.self, {
      body: { pos_x: 300, party_id: second, type: 'INITIALS', input_required: false },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      pos_x: 300,
      pos_y: 700,
      party_id: second,
      type: 'INITIALS',
      input_required: false,
    });
    const before = await contractState(t, contract.id);
    expect((await t.api('PUT', field.self, { body: { width: 400 } })).body.validation_errors).toEqual([
      'pos_x: pos_x + width is 700, past the width of page 1 (595.28 points)',
    ]);
    expect((await t.api('PUT', field.self, { body: { pdf_page: 9 } })).body.validation_errors).toEqual([
      'pdf_page: must be a page of the PDF, 1 to 2',
    ]);
    expect((await t.api('PUT', field.self, { body: { party_id: '/api/contracts/999/parties/1' } })).status).toBe(400);
    expect(await contractState(t, contract.id)).toEqual(before);
    expect((await t.api('DELETE', field.self)).status).toBe(204);
    expectProblem(await t.api('GET', field.self), 404, 'not-found');
  });

  it('holds at most 500 annotations', async () => {
    const full = await newDraft(t, 1);
    const fullParty = (await t.api('POST', `${full.self}/parties`, { body: partyBody() })).body.self;
    for (let index = 0; index < 500; index += 1) {
      const response = await t.api('POST', `${full.self}/annotations`, {
        body: fieldBody(fullParty, { pos_y: index, height: 1 }),
      });
      expect(response.status).toBe(201);
    }
    const listed = await t.api('GET', `${full.self}/annotations?per_page=100`);
    expect(listed.headers.get('pagination-items-total')).toBe('500');
    expect(listed.headers.get('pagination-num-pages')).toBe('5');
    const before = await contractState(t, full.id);
    const over = await t.api('POST', `${full.self}/annotations`, { body: fieldBody(fullParty) });
    expectProblem(over, 409, 'limit-reached');
    expect(over.body.detail).toBe('A contract holds at most 500 annotations.');
    expect(await contractState(t, full.id)).toEqual(before);
  });
});
