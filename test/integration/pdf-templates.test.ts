import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { expectProblem } from '../helpers/problems';
import { servedPdf, startTestServer, type TestServer } from '../helpers/server';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';

const GEOMETRY = ['pdf_page', 'pos_x', 'pos_y', 'width', 'height', 'type', 'input_required'] as const;
const geometryOf = (field: Record<string, unknown>) => Object.fromEntries(GEOMETRY.map((name) => [name, field[name]]));

/** The first test to read a PDF's text waits for pdf.js to load on the sandbox's worker (seconds under tsx in a checkout). */
const LOADS_PDFJS_MS = 120_000;

describe('PDF templates with roles', () => {
  let t: TestServer;
  let clerk: string;
  let pdf: Uint8Array;
  beforeAll(async () => {
    t = await startTestServer();
    clerk = (
      await t.api('POST', '/api/users', {
        body: { username: 'clerk', email: 'clerk@office.test', permission_template: 'CUSTOMER_USER' },
      })
    ).body.self;
    pdf = await makeTaggedPdf({ pages: 3, lines: LEASE_LINES });
  });
  afterAll(() => t.close());

  async function pdfTemplate(name: string, isPublished = true): Promise<string> {
    const created = await t.api('POST', '/api/contract_templates', { body: { name, is_published: isPublished } });
    expect(created.body).toMatchObject({ kind: 'TEXT', roles: 0 });
    const uploaded = await t.api('PUT', `${created.body.self}/pdf`, {
      raw: { data: pdf, contentType: 'application/pdf' },
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.body).toMatchObject({ kind: 'PDF', roles: 0, name });
    return created.body.self;
  }

  it(
    'takes fields for roles from tags and by hand, and shows its own PDF as its preview',
    async () => {
      const self = await pdfTemplate('Lease, two parties');
      const made = await t.api('POST', `${self}/fields/from_tags`);
      expect(made.status, made.text).toBe(201);
      expect(made.body.map((field: any) => [field.pdf_page, field.type, field.role])).toEqual([
        [1, 'NAME', 2],
        [1, 'CHECKBOX', 2],
        [2, 'TEXT', 1],
        [2, 'INITIALS', 2],
        [3, 'SIGNATURE', 1],
        [3, 'DATE', 1],
        [3, 'SIGNATURE', 2],
      ]);
      expect((await t.api('GET', self)).body.roles).toBe(2);
      const extra = await t.api('POST', `${self}/fields`, {
        body: { role: 3, pdf_page: 1, pos_x: 300, pos_y: 700, width: 150, height: 40, type: 'SIGNATURE' },
      });
      expect(extra.status, extra.text).toBe(201);
      expect(extra.body).toMatchObject({ role: 3, input_required: true, content: '' });
      expect((await t.api('GET', self)).body.roles).toBe(3);
      const moved = await t.api('PUT', extra.body.self, { body: { pos_y: 720, role: 2 } });
      expect(moved.body).toMatchObject({ pos_y: 720, role: 2 });
      expect((await t.api('GET', self)).body.roles).toBe(2);
      expect((await t.api('GET', `${self}/fields?per_page=100`)).body).toHaveLength(8);
      const preview = await fetch(`${t.url}${self}/pdf_preview`, {
        headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
      });
      expect(Buffer.from(await preview.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

      expectProblem(
        await t.api('POST', `${self}/fields`, {
          body: { role: 1, pdf_page: 4, pos_x: 1, pos_y: 1, width: 10, height: 10, type: 'TEXT' },
        }),
        400,
        'validation-failed',
      );
      expectProblem(
        await t.api('POST', `${self}/fields`, {
          body: { role: 51, pdf_page: 1, pos_x: 1, pos_y: 1, width: 10, height: 10, type: 'TEXT' },
        }),
        400,
        'validation-failed',
      );
      // A PDF too short for the fields is refused, and the template keeps its PDF.
      const shorter = await t.api('PUT', `${self}/pdf`, {
        raw: { data: await makePdf({ pages: 1 }), contentType: 'application/pdf' },
      });
      expectProblem(shorter, 400, 'validation-failed');
      expect(shorter.body.validation_errors[0]).toMatch(/^pdf: the new PDF leaves field .* off its page/);
      expect((await t.api('DELETE', extra.body.self)).status).toBe(204);
      expectProblem(await t.api('GET', extra.body.self), 404, 'not-found');
    },
    LOADS_PDFJS_MS,
  );

  it('makes contracts whose parties take the roles’ fields in the order they are added', async () => {
    const self = await pdfTemplate('Lease for contracts');
    const fields = (await t.api('POST', `${self}/fields/from_tags`)).body as any[];
    const contract = await t.api('POST', '/api/contracts', { body: { template: self, name: 'Lease Storgatan 1' } });
    expect(contract.status, contract.text).toBe(201);
    expect(contract.body.template).toBe(self);
    expect((await servedPdf(t, contract.body.self)).equals(Buffer.from(pdf))).toBe(true);
    expect((await t.api('GET', `${contract.body.self}/annotations`)).body).toEqual([]);

    const landlord = await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Lena Landlord', email: 'lena@example.test' },
    });
    const afterOne = (await t.api('GET', `${contract.body.self}/annotations?per_page=100`)).body as any[];
    expect(afterOne.map(geometryOf).sort(byPlace)).toEqual(
      fields
        .filter((field) => field.role === 1)
        .map(geometryOf)
        .sort(byPlace),
    );
    expect(afterOne.every((annotation) => annotation.party_id === landlord.body.self)).toBe(true);
    const tenant = await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Tor Tenant', email: 'tor@example.test' },
    });
    const all = (await t.api('GET', `${contract.body.self}/annotations?per_page=100`)).body as any[];
    expect(
      all
        .filter((annotation) => annotation.party_id === tenant.body.self)
        .map(geometryOf)
        .sort(byPlace),
    ).toEqual(
      fields
        .filter((field) => field.role === 2)
        .map(geometryOf)
        .sort(byPlace),
    );
    // A third party finds no role waiting: it gets no fields.
    await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Vera Viewer', email: 'vera@example.test', sign_type: 'VIEWER' },
    });
    expect((await t.api('GET', `${contract.body.self}/annotations?per_page=100`)).body).toHaveLength(7);
    // The template's fields are copied: changing the template changes no contract.
    await t.api('DELETE', fields[0].self);
    expect((await t.api('GET', `${contract.body.self}/annotations?per_page=100`)).body).toHaveLength(7);

    expectProblem(await t.api('PUT', contract.body.self, { body: { template: self } }), 400, 'validation-failed');
    expectProblem(
      await t.api('POST', '/api/contracts', { body: { template: self, content: 'Text' } }),
      400,
      'validation-failed',
    );
    // Deleting the template leaves the contract its PDF.
    expect((await t.api('DELETE', self)).status).toBe(204);
    expect((await servedPdf(t, contract.body.self)).equals(Buffer.from(pdf))).toBe(true);
  });

  it('gives its contracts the office’s reminders, and a copy keeps the fields still waiting for a role', async () => {
    const self = await pdfTemplate('Lease to copy');
    const fields = (await t.api('POST', `${self}/fields/from_tags`)).body as any[];
    await t.api('PUT', '/api/settings/reminders', {
      body: { reminder_interval_days: 5, reminder_max_count: 2, expiry_warning_days: 1 },
    });
    const contract = (await t.api('POST', '/api/contracts', { body: { template: self, name: 'Lease to copy' } })).body;
    expect(contract).toMatchObject({ reminder_interval_days: 5, reminder_max_count: 2, expiry_warning_days: 1 });
    await t.api('POST', `${contract.self}/parties`, { body: { name: 'Lena Landlord', email: 'lena@example.test' } });

    const copy = await t.api('POST', `${contract.self}/duplicate`);
    expect(copy.status, copy.text).toBe(201);
    const ofRole = (role: number) =>
      fields
        .filter((field) => field.role === role)
        .map(geometryOf)
        .sort(byPlace);
    const copied = (await t.api('GET', `${copy.body.self}/annotations?per_page=100`)).body as any[];
    expect(copied.map(geometryOf).sort(byPlace)).toEqual(ofRole(1));
    // Role 2 had no party yet in the original: the copy's next party takes its fields.
    const tenant = await t.api('POST', `${copy.body.self}/parties`, {
      body: { name: 'Tor Tenant', email: 'tor@example.test' },
    });
    const all = (await t.api('GET', `${copy.body.self}/annotations?per_page=100`)).body as any[];
    expect(
      all
        .filter((annotation) => annotation.party_id === tenant.body.self)
        .map(geometryOf)
        .sort(byPlace),
    ).toEqual(ofRole(2));
    // The original's waiting role is its own still.
    const tenantThere = await t.api('POST', `${contract.self}/parties`, {
      body: { name: 'Tor Tenant', email: 'tor@example.test' },
    });
    const there = (await t.api('GET', `${contract.self}/annotations?per_page=100`)).body as any[];
    expect(
      there
        .filter((annotation) => annotation.party_id === tenantThere.body.self)
        .map(geometryOf)
        .sort(byPlace),
    ).toEqual(ofRole(2));
  });

  it('offers unpublished templates to administrators only', async () => {
    const hidden = await pdfTemplate('Draft lease', false);
    // Another user's unpublished template is not there for an ordinary user (the permission model).
    const refused = await t.api('POST', '/api/contracts', {
      body: { template: hidden },
      headers: { 'api-user-uri': clerk },
    });
    expectProblem(refused, 400, 'validation-failed');
    expect((await t.api('POST', '/api/contracts', { body: { template: hidden } })).status).toBe(201);
    await t.api('PUT', hidden, { body: { is_published: true } });
    expect(
      (await t.api('POST', '/api/contracts', { body: { template: hidden }, headers: { 'api-user-uri': clerk } }))
        .status,
    ).toBe(201);
  });

  it('answers 409 for fields of a text template and 404 for no template', async () => {
    const text = await t.api('POST', '/api/contract_templates', { body: { name: 'Text only', content: '# Hello' } });
    expectProblem(await t.api('GET', `${text.body.self}/fields`), 409, 'conflict');
    expectProblem(await t.api('POST', `${text.body.self}/fields/from_tags`), 409, 'conflict');
    expectProblem(await t.api('POST', '/api/contract_templates/99999/fields/from_tags'), 404, 'not-found');
    expectProblem(
      await t.api('PUT', `${text.body.self}/pdf`, { raw: { data: 'not a pdf', contentType: 'application/pdf' } }),
      400,
      'invalid-pdf',
    );
    expect((await t.api('GET', text.body.self)).body.kind).toBe('TEXT');
  });
});

function byPlace(a: Record<string, any>, b: Record<string, any>): number {
  return a.pdf_page - b.pdf_page || a.pos_y - b.pos_y || a.pos_x - b.pos_x;
}
