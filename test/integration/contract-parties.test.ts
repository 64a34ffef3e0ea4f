import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState, fieldBody, newDraft, partyBody } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';

describe('contract parties', () => {
  let t: TestServer;
  let clerkPath: string;
  beforeAll(async () => {
    t = await startTestServer();
    // An administrator: an ordinary user could not reach the administrator's drafts at all.
    clerkPath = (
      await t.api('POST', '/api/users', {
        body: { username: 'clerk', email: 'clerk@office.test', permission_template: 'CUSTOMER_ADMIN_USER' },
      })
    ).body.self;
  });
  afterAll(() => t.close());

  it('adds a party with defaults, a secret contract_url and the acting user as author', async () => {
    const contract = await newDraft(t);
    const response = await t.api('POST', `${contract.self}/parties`, {
      body: partyBody(),
      headers: { 'api-user-uri': clerkPath },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Anna Andersson',
      email: 'anna@example.se',
      mobile_phone: '',
      identity_number: '',
      delivery_method: 'EMAIL',
      sign_type: 'DEFAULT',
      sign_order: 1,
      user: null,
      is_accept: false,
      sign_time: null,
      reject_cause: null,
      created_by: clerkPath,
      email_status: {
        sent: false,
        opened: false,
        clicked: false,
        bounced: false,
        hardbounced: false,
        softbounced: false,
        blocked: false,
        unsub: false,
        spam: false,
      },
    });
    expect(response.body.self).toMatch(new RegExp(`^${contract.self}/parties/\\d+$`));
    expect(response.body.contract_url).toMatch(new RegExp(`^${t.url}/sign/[A-Za-z0-9_-]{43}$`));
    const second = await t.api('POST', `${contract.self}/parties`, { body: partyBody({ name: 'Bo' }) });
    expect(second.body.sign_order).toBe(2);
    expect(second.body.contract_url).not.toBe(response.body.contract_url);
    expect((await t.api('GET', response.body.self)).body).toEqual(response.body);
  });

  it('needs the address that the delivery method sends to', async () => {
    const contract = await newDraft(t);
    const post = (body: Record<string, unknown>) => t.api('POST', `${contract.self}/parties`, { body });
    expect((await post({ name: 'Sms', delivery_method: 'SMS', mobile_phone: '+46 70-123 45 67' })).status).toBe(201);
    expect(
      (
        await post({
          name: 'Both',
          delivery_method: 'EMAIL_AND_SMS',
          email: 'b@example.se',
          mobile_phone: '0701234567',
        })
      ).status,
    ).toBe(201);
    expect((await post({ name: 'Handed the link', delivery_method: 'NONE' })).status).toBe(201);
    const before = await contractState(t, contract.id);
    expect((await post({ name: 'No mail' })).body.validation_errors).toEqual([
      'email: is required when delivery_method is EMAIL',
    ]);
    expect(
      (await post({ name: 'No phone', delivery_method: 'SMS', email: 'x@example.se' })).body.validation_errors,
    ).toEqual(['mobile_phone: is required when delivery_method is SMS']);
    expect((await post({ name: 'Neither', delivery_method: 'EMAIL_AND_SMS' })).body.validation_errors).toEqual([
      'email: is required when delivery_method is EMAIL_AND_SMS',
      'mobile_phone: is required when delivery_method is EMAIL_AND_SMS',
    ]);
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('refuses bad input of every kind, one line per field, changing nothing', async () => {
    const contract = await newDraft(t);
    const before = await contractState(t, contract.id);
    const post = async (body: unknown) => {
      const response = await t.api('POST', `${contract.self}/parties`, { body });
      expectProblem(response, 400, 'validation-failed');
      return response.body.validation_errors.sort();
    };
    expect(await post({})).toEqual(['name: is required']);
    expect(await post({ name: '   ', email: 'a@example.se' })).toEqual(['name: must not be empty']);
    expect(
      await post({
        name: 'x'.repeat(1001),
        email: 'not-an-address',
        mobile_phone: 'call me',
        delivery_method: 'FAX',
        sign_type: 'WITNESS',
        sign_order: '1',
        identity_number: 12,
        user: '/api/contracts/1',
        colour: 'red',
      }),
    ).toEqual(
      [
        'colour: unknown field',
        'delivery_method: must be one of EMAIL, SMS, EMAIL_AND_SMS, NONE',
        'email: must be an e-mail address or empty',
        'identity_number: must be a string',
        'mobile_phone: must be a phone number of 6 to 15 digits, optionally starting with +, or empty',
        'name: must be at most 1000 characters',
        'sign_order: must be a number',
        'sign_type: must be one of DEFAULT, APPROVER, VIEWER',
        'user: must be a path of the form /api/users/<id>',
      ].sort(),
    );
    expect(await post(partyBody({ user: '/api/users/999' }))).toEqual(['user: /api/users/999 is no user']);
    expect(await post(partyBody({ sign_order: -1 }))).toEqual(['sign_order: must be at least 0']);
    expect(await post(partyBody({ sign_order: 1.5 }))).toEqual(['sign_order: must be an integer']);
    expectProblem(
      await t.api('POST', `${contract.self}/parties`, { raw: { data: '{"name":', contentType: 'application/json' } }),
      400,
      'malformed-json',
    );
    expectProblem(
      await t.api('POST', `${contract.self}/parties`, { raw: { data: 'name=x', contentType: 'text/plain' } }),
      415,
      'unsupported-media-type',
    );
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('takes form bodies and links a user', async () => {
    const contract = await newDraft(t);
    const response = await t.api('POST', `${contract.self}/parties`, {
      form: { name: 'Form Party', email: 'form@example.se', sign_order: '7', user: clerkPath, sign_type: 'APPROVER' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ sign_order: 7, user: clerkPath, sign_type: 'APPROVER' });
  });

  it('changes only the fields sent, and keeps the contact rule', async () => {
    const contract = await newDraft(t);
    const party = (await t.api('POST', `${contract.self}/parties`, { body: partyBody() })).body;
    const changed = await t.api('PUT', party.self, {
      body: { name: 'Anna B', mobile_phone: '+46701234567', delivery_method: 'EMAIL_AND_SMS' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Anna B',
      email: 'anna@example.se',
      mobile_phone: '+46701234567',
      delivery_method: 'EMAIL_AND_SMS',
    });
    expect(changed.body.contract_url).toBe(party.contract_url);
    const before = await contractState(t, contract.id);
    expect((await t.api('PUT', party.self, { body: { email: '' } })).body.validation_errors).toEqual([
      'email: is required when delivery_method is EMAIL_AND_SMS',
    ]);
    expect((await t.api('PUT', party.self, { body: { sign_type: 'OBSERVER' } })).status).toBe(400);
    expect(await contractState(t, contract.id)).toEqual(before);
    // Read-only fields are ignored when sent back.
    const roundTrip = await t.api('PUT', party.self, { body: { ...changed.body, is_accept: true, contract_url: 'x' } });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.is_accept).toBe(false);
  });

  it('answers 404 for a party of another contract and for unknown ids', async () => {
    const one = await newDraft(t);
    const other = await newDraft(t);
    const party = (await t.api('POST', `${one.self}/parties`, { body: partyBody() })).body;
    const partyId = party.self.split('/').at(-1);
    const before = await contractState(t, one.id);
    expectProblem(await t.api('GET', `${other.self}/parties/${partyId}`), 404, 'not-found');
    expectProblem(
      await t.api('PUT', `${other.self}/parties/${partyId}`, { body: { name: 'Stolen' } }),
      404,
      'not-found',
    );
    expectProblem(await t.api('DELETE', `${other.self}/parties/${partyId}`), 404, 'not-found');
    expectProblem(await t.api('POST', '/api/contracts/999999/parties', { body: partyBody() }), 404, 'not-found');
    expectProblem(await t.api('GET', `${one.self}/parties/abc`), 404, 'not-found');
    expect(await contractState(t, one.id)).toEqual(before);
  });

  it('removes a party with its annotations', async () => {
    const contract = await newDraft(t);
    const party = (await t.api('POST', `${contract.self}/parties`, { body: partyBody() })).body;
    const keep = (await t.api('POST', `${contract.self}/parties`, { body: partyBody({ name: 'Keep' }) })).body;
    await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(party.self) });
    const kept = (await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(keep.self) })).body;
    expect((await t.api('DELETE', party.self)).status).toBe(204);
    expectProblem(await t.api('GET', party.self), 404, 'not-found');
    const fields = await t.api('GET', `${contract.self}/annotations`);
    expect(fields.body.map((field: { self: string }) => field.self)).toEqual([kept.self]);
  });

  it('lists parties newest first, paged', async () => {
    const contract = await newDraft(t);
    const made: string[] = [];
    for (let index = 0; index < 12; index += 1)
      made.push(
        (await t.api('POST', `${contract.self}/parties`, { body: partyBody({ name: `P${index}` }) })).body.self,
      );
    const first = await t.api('GET', `${contract.self}/parties`);
    expect(first.headers.get('pagination-items-total')).toBe('12');
    expect(first.headers.get('pagination-num-pages')).toBe('2');
    expect(first.body.map((party: { self: string }) => party.self)).toEqual(made.slice(2).reverse());
  });

  it('holds at most 50 parties', async () => {
    const contract = await newDraft(t);
    for (let index = 0; index < 50; index += 1) {
      expect((await t.api('POST', `${contract.self}/parties`, { body: partyBody({ name: `P${index}` }) })).status).toBe(
        201,
      );
    }
    const before = await contractState(t, contract.id);
    const over = await t.api('POST', `${contract.self}/parties`, { body: partyBody() });
    expectProblem(over, 409, 'limit-reached');
    expect(over.body.detail).toBe('A contract holds at most 50 parties.');
    expect(await contractState(t, contract.id)).toEqual(before);
  });
});
