import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download } from '../helpers/evidence';
import { pageCountOf, pdftotext, renderGray } from '../helpers/pdf-tools';
import { expectProblem } from '../helpers/problems';
import { makeTempDir } from '../helpers/server';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { makeUser } from '../helpers/users';

const MIB2 = 2 * 1024 * 1024;
const box = (y: number, height = 24) => ({ pdf_page: 1, pos_x: 72, pos_y: y, width: 240, height });
const idOf = (self: string) => self.split('/').at(-1)!;
const fileAnswer = (bytes: Buffer, file_name = 'passport.pdf', content_type = 'application/pdf') => ({
  file_name,
  content_type,
  data: bytes.toString('base64'),
});

/** The new field types, labels, hints and options, through the API and a party's link, as an integrator sees them. */
describe('field labels and the types NUMBER, EMAIL, DROPDOWN, RADIO and ATTACHMENT', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('keeps a label, a hint and options, and refuses options that do not fit the type, changing nothing', async () => {
    const { t } = env;
    const contract = await makeContract(t, [{ name: 'Eva', delivery_method: 'NONE', fields: [] }]);
    const party = contract.parties[0]!.self;
    const post = (body: Record<string, unknown>) =>
      t.api('POST', `${contract.self}/annotations`, { body: { party_id: party, ...box(100), ...body } });

    const made = await post({
      type: 'DROPDOWN',
      label: 'Billing',
      hint: 'How often we invoice',
      options: ['Monthly', 'Yearly'],
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body).toMatchObject({
      type: 'DROPDOWN',
      label: 'Billing',
      hint: 'How often we invoice',
      options: ['Monthly', 'Yearly'],
      value: null,
    });
    const text = await post({ type: 'TEXT' });
    expect(text.body).toMatchObject({ label: '', hint: '', options: null });

    const refusals: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'RADIO' }, /^options: a RADIO field needs its options/],
      [{ type: 'TEXT', options: ['A'] }, /^options: only DROPDOWN and RADIO fields have options/],
      [{ type: 'DROPDOWN', options: [] }, /^options/],
      [{ type: 'DROPDOWN', options: ['A', 'A'] }, /^options: must all be different/],
      [{ type: 'DROPDOWN', options: Array.from({ length: 51 }, (_, i) => `O${i}`) }, /^options/],
      [{ type: 'DROPDOWN', options: ['x'.repeat(101)] }, /^options/],
      [{ type: 'TEXT', label: 'x'.repeat(101) }, /^label/],
      [{ type: 'TEXT', hint: 'x'.repeat(201) }, /^hint/],
      [{ type: 'COLOUR' }, /^type/],
    ];
    for (const [body, line] of refusals) {
      const refused = await post(body);
      expectProblem(refused, 400, 'validation-failed');
      expect(refused.body.validation_errors.join('\n'), JSON.stringify(body)).toMatch(line);
    }
    // A type changed to RADIO must bring its options; a DROPDOWN's options are changed like any field.
    expectProblem(await t.api('PUT', text.body.self, { body: { type: 'RADIO' } }), 400, 'validation-failed');
    expectProblem(await t.api('PUT', made.body.self, { body: { options: null } }), 400, 'validation-failed');
    const changed = await t.api('PUT', made.body.self, { body: { options: ['Quarterly'], label: 'Invoices' } });
    expect(changed.body).toMatchObject({ options: ['Quarterly'], label: 'Invoices', hint: 'How often we invoice' });
    const all = (await t.api('GET', `${contract.self}/annotations`)).body;
    expect(all.map((field: { type: string; options: unknown }) => [field.type, field.options])).toEqual([
      ['TEXT', null],
      ['DROPDOWN', ['Quarterly']],
    ]);
  });

  it('refuses wrong answers from the party with a line per field, and nothing is signed', async () => {
    const { t } = env;
    const contract = await makeContract(t, [
      {
        name: 'Eva',
        delivery_method: 'NONE',
        fields: [
          { type: 'NUMBER', ...box(100), label: 'Monthly rent' },
          { type: 'EMAIL', ...box(140) },
          { type: 'DROPDOWN', ...box(180), options: ['Monthly', 'Yearly'] },
          { type: 'RADIO', ...box(220, 48), options: ['Cat', 'Dog'] },
          { type: 'ATTACHMENT', ...box(290) },
        ],
      },
    ]);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const ids = ((await t.api('GET', `${contract.self}/annotations`)).body as Array<{ self: string; type: string }>)
      .filter((field) => field.type !== 'SIGNATURE')
      .map((field) => idOf(field.self))
      .reverse();
    const [number, email, dropdown, radio, attachment] = ids as [string, string, string, string, string];
    const eva = signingClient(contract.parties[0]!.contract_url);
    await eva.state();
    const good = {
      [number]: '12 500',
      [email]: 'eva@example.test',
      [dropdown]: 'Yearly',
      [radio]: 'Dog',
      [attachment]: fileAnswer(Buffer.from('%PDF-1.7 passport')),
    };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ [number]: 'twelve' }, `fields.${number}: must be a number`],
      [{ [number]: '1e5' }, `fields.${number}: must be a number`],
      [{ [number]: '1234567890123456' }, `fields.${number}: must have at most 15 digits`],
      [{ [email]: 'eva@' }, `fields.${email}: must be an e-mail address`],
      [{ [dropdown]: 'Weekly' }, `fields.${dropdown}: must be one of: Monthly, Yearly`],
      [{ [radio]: 'cat' }, `fields.${radio}: must be one of: Cat, Dog`],
      [
        { [attachment]: fileAnswer(Buffer.alloc(MIB2 + 1, 1)) },
        `fields.${attachment}: the file is larger than 2 MiB (2,097,152 bytes)`,
      ],
      [{ [attachment]: { ...fileAnswer(Buffer.from('x')), data: '' } }, `fields.${attachment}.data: must not be empty`],
      [
        { [attachment]: fileAnswer(Buffer.from('x'), 'a.pdf', 'not a type') },
        `fields.${attachment}.content_type: must be a media type`,
      ],
      [
        { [attachment]: { ...fileAnswer(Buffer.from('x')), data: 'no base64!' } },
        `fields.${attachment}.data: must be the file in base64`,
      ],
      [{ [attachment]: 'passport.pdf' }, `fields.${attachment}: must be a file`],
      [{ [attachment]: undefined }, `fields.${attachment}: is required: attach a file`],
    ];
    for (const [bad, line] of cases) {
      const answer = await eva.accept({ ...good, ...bad }, 'Eva');
      expect(answer.status, line).toBe(400);
      expect(answer.body.type).toMatch(/#validation-failed$/);
      expect(answer.body.validation_errors.join('\n')).toContain(line);
    }
    expect((await eva.state()).body.stage).toBe('ready');
    const after = (await t.api('GET', `${contract.self}/annotations`)).body as Array<{ value: unknown }>;
    expect(after.map((field) => field.value)).toEqual([null, null, null, null, null]);
    expect((await t.api('GET', contract.self)).body.is_signed).toBe(false);
  });

  it('gives the answers as typed values, the file by its own route, on the audit page and in the evidence', async () => {
    const { t } = env;
    const contract = await makeContract(t, [
      {
        name: 'Eva Ek',
        delivery_method: 'NONE',
        fields: [
          { type: 'NUMBER', ...box(100), label: 'Monthly rent' },
          { type: 'EMAIL', ...box(140), label: 'Invoice address' },
          { type: 'DROPDOWN', ...box(180), options: ['Monthly', 'Yearly'] },
          { type: 'RADIO', ...box(220, 48), options: ['Cat', 'Dog'] },
          { type: 'ATTACHMENT', ...box(290), label: 'Passport copy' },
          { type: 'SIGNATURE', pdf_page: 1, pos_x: 72, pos_y: 640, width: 200, height: 50 },
        ],
      },
    ]);
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const fields = (await t.api('GET', `${contract.self}/annotations`)).body as Array<{ self: string; type: string }>;
    const idOfType = (type: string) => idOf(fields.find((field) => field.type === type)!.self);
    // Exactly 2 MiB: the limit of a contract's attachments, accepted.
    const bytes = randomBytes(MIB2);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const eva = signingClient(contract.parties[0]!.contract_url);
    const attachmentField = (state: { body: { fields: Array<{ type: string; fileUrl: string | null }> } }) =>
      state.body.fields.find((field) => field.type === 'ATTACHMENT')!;
    expect(attachmentField(await eva.state()).fileUrl).toBeNull();
    const answer = await eva.accept(
      {
        [idOfType('NUMBER')]: '12 500,50',
        [idOfType('EMAIL')]: 'eva@example.test',
        [idOfType('DROPDOWN')]: 'Yearly',
        [idOfType('RADIO')]: 'Dog',
        [idOfType('ATTACHMENT')]: fileAnswer(bytes, 'pass/port ÅÄÖ.pdf'),
      },
      'Eva Ek',
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);

    const values = Object.fromEntries(
      ((await t.api('GET', `${contract.self}/annotations`)).body as Array<{ type: string; value: unknown }>).map(
        (field) => [field.type, field.value],
      ),
    );
    const fileSelf = fields.find((field) => field.type === 'ATTACHMENT')!.self;
    expect(values).toMatchObject({
      NUMBER: 12500.5,
      EMAIL: 'eva@example.test',
      DROPDOWN: 'Yearly',
      RADIO: 'Dog',
      ATTACHMENT: {
        file_name: 'pass/port ÅÄÖ.pdf',
        content_type: 'application/pdf',
        size: MIB2,
        sha256,
        download_uri: `${t.url}${fileSelf}/file`,
      },
    });

    // The office downloads the file with its token; nobody else gets it.
    const file = await download(t, `${fileSelf}/file`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(sha256);
    const stranger = await fetch(`${t.url}${fileSelf}/file`, { headers: { 'accept-api-version': '1' } });
    expect(stranger.status).toBe(401);
    const clerk = await makeUser(t, 'clerk-files');
    expectProblem(await clerk.api('GET', `${fileSelf}/file`), 404, 'not-found');
    // Another field, or the same annotation under another contract, is no file.
    expectProblem(await t.api('GET', `${fields[0]!.self}/file`), 404, 'not-found');
    expectProblem(await t.api('GET', `/api/contracts/1/annotations/${idOf(fileSelf)}/file`), 404, 'not-found');
    // The party downloads again the file it attached, by its own link; no other link reaches it.
    const attached = attachmentField(await eva.state());
    expect(attached).toMatchObject({ content: 'pass/port ÅÄÖ.pdf', fileUrl: expect.stringMatching(/\/file$/) });
    const own = await fetch(new URL(attached.fileUrl!, t.url));
    expect(own.status).toBe(200);
    expect(own.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(
      createHash('sha256')
        .update(Buffer.from(await own.arrayBuffer()))
        .digest('hex'),
    ).toBe(sha256);
    const other = await makeContract(t, [{ name: 'Olle', delivery_method: 'NONE' }]);
    await t.api('POST', `${other.self}/send`, { body: {} });
    const olleLink = new URL(other.parties[0]!.contract_url);
    const fieldPath = attached.fileUrl!.replace(/^\/sign\/[^/]+/, '');
    expect((await fetch(new URL(`${olleLink.pathname}${fieldPath}`, t.url))).status).toBe(404);
    expect((await fetch(new URL(`/sign/${'x'.repeat(43)}${fieldPath}`, t.url))).status).toBe(404);
    const numberField = attachmentField(await eva.state()).fileUrl!.replace(
      /\/fields\/\d+\//,
      `/fields/${idOfType('NUMBER')}/`,
    );
    expect((await fetch(new URL(numberField, t.url))).status).toBe(404);

    const pdf = await download(t, `${contract.self}/signed_pdf`);
    const pdfFile = path.join(makeTempDir(), 'signed.pdf');
    fs.writeFileSync(pdfFile, pdf.bytes);
    const page1 = pdftotext(pdfFile, 1).replace(/\s+/g, ' ');
    expect(page1).toContain('12500.5');
    expect(page1).toContain('eva@example.test');
    expect(page1).toContain('Yearly');
    expect(page1).toContain('Dog');
    expect(page1).toContain(`pass/port ÅÄÖ.pdf · SHA-256 ${sha256.slice(0, 12)}`);
    // The chosen option's round button is filled, the other's is not (1 pixel = 1 point; the RADIO box is at y 220, 48 high).
    const gray = renderGray(pdfFile, 1, path.dirname(pdfFile));
    const at = (x: number, y: number) => gray.pixels[Math.round(y) * gray.width + Math.round(x)]!;
    const centreX = 72 + 11 * 0.36 + 1;
    expect(at(centreX, 220 + 24 * 1.5)).toBeLessThan(100);
    expect(at(centreX, 220 + 24 * 0.5)).toBeGreaterThan(200);
    const audit = pdftotext(pdfFile, 2, pageCountOf(pdfFile)).replace(/\s+/g, ' ');
    expect(audit).toContain('Files attached by the parties (1)');
    expect(audit).toContain('Eva Ek · Passport copy: pass/port ÅÄÖ.pdf');
    expect(audit).toContain(`SHA-256 ${sha256}`);

    const zip = unzipSync(new Uint8Array((await download(t, `${contract.self}/evidence`)).bytes));
    const prefix = `contract-${contract.id}-evidence/`;
    const inZip = zip[`${prefix}party-files/${idOf(fileSelf)}-pass_port ÅÄÖ.pdf`];
    expect(inZip && createHash('sha256').update(inZip).digest('hex')).toBe(sha256);
    expect(Buffer.from(zip[`${prefix}SHA256SUMS`]!).toString()).toContain(`${sha256}  party-files/`);
  });

  it('carries labels and options from a template’s fields to a contract’s parties, and into a copy', async () => {
    const { t } = env;
    const template = (
      await t.api('POST', '/api/contract_templates', { body: { name: 'Lease form', is_published: true } })
    ).body.self;
    const pdfBytes = await download(t, `${(await makeContract(t, [])).self}/pdf`);
    expect(
      (await t.api('PUT', `${template}/pdf`, { raw: { data: pdfBytes.bytes, contentType: 'application/pdf' } })).status,
    ).toBe(200);
    const field = await t.api('POST', `${template}/fields`, {
      body: { role: 1, type: 'RADIO', ...box(100, 48), label: 'Pet', hint: 'Pick one', options: ['Cat', 'Dog'] },
    });
    expect(field.status, field.text).toBe(201);
    expect(field.body).toMatchObject({ label: 'Pet', hint: 'Pick one', options: ['Cat', 'Dog'] });
    expectProblem(
      await t.api('POST', `${template}/fields`, { body: { role: 1, type: 'DROPDOWN', ...box(200) } }),
      400,
      'validation-failed',
    );
    const contract = (await t.api('POST', '/api/contracts', { body: { template, name: 'Lease' } })).body.self;
    await t.api('POST', `${contract}/parties`, { body: { name: 'Tor', email: 'tor@example.test' } });
    const [annotation] = (await t.api('GET', `${contract}/annotations`)).body;
    expect(annotation).toMatchObject({ type: 'RADIO', label: 'Pet', hint: 'Pick one', options: ['Cat', 'Dog'] });
    const copy = await t.api('POST', `${contract}/duplicate`, { body: {} });
    expect(copy.status, copy.text).toBe(201);
    expect((await t.api('GET', `${copy.body.self}/annotations`)).body[0]).toMatchObject({
      label: 'Pet',
      options: ['Cat', 'Dog'],
    });
  });

  it('takes the same values through test_answer, and serves a hostile file type as a sandboxed download', async () => {
    const { t } = env;
    const contract = await makeContract(
      t,
      [
        {
          name: 'Eva',
          delivery_method: 'NONE',
          fields: [
            { type: 'NUMBER', ...box(100) },
            { type: 'ATTACHMENT', ...box(140) },
          ],
        },
      ],
      { test_mode: true },
    );
    expect((await t.api('POST', `${contract.self}/send`, { body: {} })).status).toBe(200);
    const fields = (await t.api('GET', `${contract.self}/annotations`)).body as Array<{ self: string; type: string }>;
    const number = idOf(fields.find((field) => field.type === 'NUMBER')!.self);
    const attachment = fields.find((field) => field.type === 'ATTACHMENT')!.self;
    const html = Buffer.from('<script>alert(document.cookie)</script>');
    const answer = (fields: Record<string, unknown>) =>
      t.api('POST', `${contract.parties[0]!.self}/test_answer`, { body: { answer: 'accept', fields } });
    const refused = await answer({ [number]: 'ten', [idOf(attachment)]: fileAnswer(html, 'x.html', 'text/html') });
    expectProblem(refused, 400, 'validation-failed');
    expect(refused.body.validation_errors).toEqual([`fields.${number}: must be a number, such as 1250 or 12.5`]);
    expect((await t.api('GET', contract.self)).body.is_signed).toBe(false);
    expect((await answer({ [number]: 10, [idOf(attachment)]: fileAnswer(html, 'x.html', 'text/html') })).status).toBe(
      200,
    );
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);
    expect((await t.api('GET', `/api/contracts/${contract.id}/annotations/${number}`)).body.value).toBe(10);
    const served = await fetch(`${t.url}${attachment}/file`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-disposition')).toBe('attachment; filename=x.html');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
