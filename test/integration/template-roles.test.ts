import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';

/** The first test to read a PDF's text waits for pdf.js to load on the sandbox's worker. */
const LOADS_PDFJS_MS = 120_000;

describe('Named roles of PDF templates', () => {
  let t: TestServer;
  let template: string;
  let fields: any[];
  beforeAll(async () => {
    t = await startTestServer();
    const pdf = await makeTaggedPdf({ pages: 3, lines: LEASE_LINES });
    const created = await t.api('POST', '/api/contract_templates', {
      body: { name: 'Lease', is_published: true, role_names: [' Landlord ', 'Tenant'] },
    });
    expect(created.status, created.text).toBe(201);
    template = created.body.self;
    await t.api('PUT', `${template}/pdf`, { raw: { data: pdf, contentType: 'application/pdf' } });
    fields = (await t.api('POST', `${template}/fields/from_tags`)).body;
    expect(fields.length).toBe(7);
  }, LOADS_PDFJS_MS);
  afterAll(() => t.close());

  const annotationsOf = async (contract: string) =>
    (await t.api('GET', `${contract}/annotations?per_page=100`)).body as any[];
  const countFor = (list: any[], party: string) => list.filter((a) => a.party_id === party).length;
  const rolesCount = (role: number) => fields.filter((field) => field.role === role).length;

  it('names its roles through the API, trimmed, and refuses two roles of one name', async () => {
    const shown = await t.api('GET', template);
    expect(shown.body).toMatchObject({ kind: 'PDF', roles: 2, role_names: ['Landlord', 'Tenant'] });
    const renamed = await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant', 'Witness'] } });
    expect(renamed.body.role_names).toEqual(['Landlord', 'Tenant', 'Witness']);
    const twice = await t.api('PUT', template, { body: { role_names: ['Tenant', 'tenant '] } });
    expectProblem(twice, 400, 'validation-failed');
    expect(twice.body.validation_errors.join(' ')).toMatch(/same name/);
    expect((await t.api('GET', template)).body.role_names).toEqual(['Landlord', 'Tenant', 'Witness']);
    const tooLong = await t.api('PUT', template, { body: { role_names: ['x'.repeat(101)] } });
    expectProblem(tooLong, 400, 'validation-failed');
    const notAList = await t.api('PUT', template, { body: { role_names: 'Landlord' } });
    expectProblem(notAList, 400, 'validation-failed');
    // A template read and sent back whole keeps its names (the read-only fields are dropped).
    const echoed = await t.api('PUT', template, { body: (await t.api('GET', template)).body });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body.role_names).toEqual(['Landlord', 'Tenant', 'Witness']);
  });

  it('binds parties to roles by name, in any order and case, and later parties in order', async () => {
    await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant', 'Witness'] } });
    const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Lease by name' } })).body.self;
    const before = await t.api('GET', `${contract}/roles`);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual([
      { role_number: 1, name: 'Landlord', party: null, fields_waiting: rolesCount(1) },
      { role_number: 2, name: 'Tenant', party: null, fields_waiting: rolesCount(2) },
      { role_number: 3, name: 'Witness', party: null, fields_waiting: 0 },
    ]);
    const tenant = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Tor Tenant', email: 'tor@example.test', role: 'tenant' },
    });
    expect((await t.api('GET', `${contract}/roles`)).body[1]).toEqual({
      role_number: 2,
      name: 'Tenant',
      party: tenant.body.self,
      fields_waiting: 0,
    });
    expect(tenant.status, tenant.text).toBe(201);
    expect(tenant.body).toMatchObject({ role: 'Tenant', role_number: 2 });
    expect(countFor(await annotationsOf(contract), tenant.body.self)).toBe(rolesCount(2));
    // Without a role the next party takes the lowest role still waiting: the landlord's.
    const landlord = await t.api('POST', `${contract}/parties`, { body: { name: 'Lena', email: 'lena@example.test' } });
    expect(landlord.body).toMatchObject({ role: 'Landlord', role_number: 1 });
    expect(countFor(await annotationsOf(contract), landlord.body.self)).toBe(rolesCount(1));
    // The witness role has no fields: naming it binds it all the same.
    const witness = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Wim', email: 'wim@example.test', role: 'Witness' },
    });
    expect(witness.body).toMatchObject({ role: 'Witness', role_number: 3 });
    const listed = (await t.api('GET', `${contract}/parties`)).body as any[];
    expect(listed.map((party) => [party.name, party.role]).sort()).toEqual([
      ['Lena', 'Landlord'],
      ['Tor Tenant', 'Tenant'],
      ['Wim', 'Witness'],
    ]);
    // A party read and sent back whole with PUT keeps its role.
    const echoed = await t.api('PUT', tenant.body.self, { body: { ...tenant.body, name: 'Tor T. Tenant' } });
    expect(echoed.status, echoed.text).toBe(200);
    expect(echoed.body).toMatchObject({ name: 'Tor T. Tenant', role: 'Tenant', role_number: 2 });
  });

  it('refuses a role that does not exist, and a role bound twice, and makes nothing', async () => {
    await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant', 'Witness'] } });
    const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Lease refused' } })).body.self;
    const unknown = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Ulf', email: 'ulf@example.test', role: 'Landlady' },
    });
    expectProblem(unknown, 400, 'validation-failed');
    expect(unknown.body.validation_errors[0]).toBe(
      'role: "Landlady" is no role of this contract; its roles are "Landlord", "Tenant", "Witness"',
    );
    expect((await t.api('GET', `${contract}/parties`)).body).toEqual([]);
    const first = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Tor', email: 'tor@example.test', role: 'Tenant' },
    });
    expect(first.status).toBe(201);
    const before = await annotationsOf(contract);
    const twice = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Tea', email: 'tea@example.test', role: ' TENANT' },
    });
    expectProblem(twice, 409, 'conflict');
    expect(twice.body.detail).toBe(`The role "Tenant" is already taken by ${first.body.self} (Tor); nothing was made.`);
    expect((await t.api('GET', `${contract}/parties`)).body).toHaveLength(1);
    expect(await annotationsOf(contract)).toEqual(before);
    // A contract uploaded as a PDF has no roles to name.
    const upload = await t.api('POST', '/api/contracts', { body: { name: 'Plain' } });
    const plain = await t.api('POST', `${upload.body.self}/parties`, {
      body: { name: 'Pia', email: 'pia@example.test', role: 'Tenant' },
    });
    expectProblem(plain, 400, 'validation-failed');
    expect(plain.body.validation_errors[0]).toMatch(/has no named roles/);
    expect((await t.api('GET', `${upload.body.self}/roles`)).body).toEqual([]);
  });

  it('keeps working in order with no names, and a contract keeps the names it was made with', async () => {
    const unnamed = await t.api('POST', '/api/contract_templates', { body: { name: 'Unnamed lease' } });
    expect(unnamed.body.role_names).toEqual([]);
    await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant'] } });
    const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Names kept' } })).body.self;
    await t.api('PUT', template, { body: { role_names: ['Owner', 'Renter'] } });
    const party = await t.api('POST', `${contract}/parties`, {
      body: { name: 'Tor', email: 'tor@example.test', role: 'Tenant' },
    });
    expect(party.body).toMatchObject({ role: 'Tenant', role_number: 2 });
    const copy = await t.api('POST', `${contract}/duplicate`, { body: {} });
    expect(copy.status, copy.text).toBe(201);
    const copied = (await t.api('GET', `${copy.body.self}/parties`)).body as any[];
    expect(copied.map((p) => [p.role, p.role_number])).toEqual([['Tenant', 2]]);
    const next = await t.api('POST', `${copy.body.self}/parties`, {
      body: { name: 'Lena', email: 'lena@example.test', role: 'Landlord' },
    });
    expect(next.body).toMatchObject({ role: 'Landlord', role_number: 1 });
    expect(countFor(await annotationsOf(copy.body.self), next.body.self)).toBe(rolesCount(1));
    await t.api('PUT', template, { body: { role_names: [] } });
    const inOrder = (await t.api('POST', '/api/contracts', { body: { template, name: 'In order' } })).body.self;
    const one = await t.api('POST', `${inOrder}/parties`, { body: { name: 'A', email: 'a@example.test' } });
    expect(one.body).toMatchObject({ role: null, role_number: 1 });
    expect(countFor(await annotationsOf(inOrder), one.body.self)).toBe(rolesCount(1));
  });
  it('takes the roles’ names as the columns of a bulk send, in any order, and binds each party to its role', async () => {
    await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant'] } });
    const file =
      'Tenant e-mail;Tenant name;landlord_name;Landlord-Email;contract_name\n' +
      'tor@bulk.test;Tor Tenant;Lena Landlord;lena@bulk.test;Storgatan 1\n';
    const preview = await t.api('POST', `${template}/bulk_sends/preview`, {
      raw: { data: file, contentType: 'text/csv' },
    });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.rows[0].parties).toEqual([
      { role: 1, name: 'Lena Landlord', email: 'lena@bulk.test', mobile_phone: '' },
      { role: 2, name: 'Tor Tenant', email: 'tor@bulk.test', mobile_phone: '' },
    ]);
    // A row's problems name the party by its role.
    const badRow = await t.api('POST', `${template}/bulk_sends/preview`, {
      raw: {
        data: 'Tenant name;Tenant email;Landlord name;Landlord email\nTor;not-an-address;;l@bulk.test\n',
        contentType: 'text/csv',
      },
    });
    expect(badRow.status, badRow.text).toBe(200);
    expect(badRow.body.rows[0].errors).toEqual([
      'Landlord (party 1) name: is empty',
      'Tenant (party 2) e-mail: not-an-address is not an e-mail address',
    ]);
    // The numbered columns still work beside the names, and a name the template lacks is no column.
    const unknown = await t.api('POST', `${template}/bulk_sends/preview`, {
      raw: {
        data: 'party1_name;party1_email;Lodger name;Lodger email\nA;a@bulk.test;B;b@bulk.test\n',
        contentType: 'text/csv',
      },
    });
    expectProblem(unknown, 400, 'validation-failed');
    expect(unknown.body.validation_errors).toContain(
      'header: "Lodger name" is no column SignDesk knows (use party1_name, party1_email, party1_phone, …, contract_name)',
    );
    const made = await t.api('POST', `${template}/bulk_sends`, { raw: { data: file, contentType: 'text/csv' } });
    expect(made.status, made.text).toBe(201);
    let report = made.body;
    await expect
      .poll(async () => (report = (await t.api('GET', made.body.self)).body).pending, { timeout: 20_000 })
      .toBe(0);
    expect(report.rows[0].state, report.rows[0].error).toBe('sent');
    const parties = (await t.api('GET', `${report.rows[0].contract}/parties`)).body as any[];
    expect(parties.map((party) => [party.name, party.role]).sort()).toEqual([
      ['Lena Landlord', 'Landlord'],
      ['Tor Tenant', 'Tenant'],
    ]);
  });
  it('refuses hostile role input and someone else’s contract, making nothing', async () => {
    await t.api('PUT', template, { body: { role_names: ['Landlord', 'Tenant'] } });
    const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Not yours' } })).body.self;
    for (const role of [2, ['Tenant'], { name: 'Tenant' }, 'x'.repeat(1_001), true]) {
      const refused = await t.api('POST', `${contract}/parties`, {
        body: { name: 'Eve', email: 'eve@evil.test', role },
      });
      expectProblem(refused, 400, 'validation-failed');
    }
    for (const roleNames of [Array.from({ length: 51 }, (_, n) => `Role ${n}`), [1, 2], 'Landlord', [null]]) {
      expectProblem(await t.api('PUT', template, { body: { role_names: roleNames } }), 400, 'validation-failed');
    }
    expect((await t.api('GET', template)).body.role_names).toEqual(['Landlord', 'Tenant']);
    // An ordinary user knows the admin's contract's path but cannot see its roles or take one.
    const clerk = await makeUser(t, 'clerk');
    expectProblem(await clerk.api('GET', `${contract}/roles`), 404, 'not-found');
    const taken = await clerk.api('POST', `${contract}/parties`, {
      body: { name: 'Eve', email: 'eve@evil.test', role: 'Tenant' },
    });
    expectProblem(taken, 404, 'not-found');
    expect((await t.api('GET', `${contract}/parties`)).body).toEqual([]);
    expect((await t.api('GET', `${contract}/roles`)).body.map((role: any) => role.party)).toEqual([null, null]);
  });
});
