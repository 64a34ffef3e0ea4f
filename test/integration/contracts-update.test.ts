import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { contractState, newDraft } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';

/** A wall-clock time in Stockholm, `days` from now, in the API's format. */
const stockholm = (days: number) => formatTimestamp(Date.now() + days * 86_400_000, 'Europe/Stockholm');

describe('PUT /api/contracts/{id}', () => {
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

  it('changes every writable field and only those sent; created_by stays the author', async () => {
    const contract = await newDraft(t);
    const expire = stockholm(30);
    const fields = {
      name: 'Årsavtal 2027',
      language: 'sv',
      email_invite_content: 'Hej! Här är avtalet.',
      email_from_name: 'Kontoret',
      email_reply_to: 'svar@kontoret.se',
      party_order_defined: true,
      show_identity_number: true,
      require_auth: 'EMAIL_CODE',
      expire_time: expire,
    };
    const response = await t.api('PUT', contract.self, { body: fields, headers: { 'api-user-uri': clerkPath } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...fields, created_by: t.adminPath, self: contract.self });
    const partial = await t.api('PUT', contract.self, { body: { name: 'Bara namnet' } });
    expect(partial.body).toMatchObject({ ...fields, name: 'Bara namnet' });
    const cleared = await t.api('PUT', contract.self, {
      form: { expire_time: '', email_reply_to: '', party_order_defined: 'false' },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ expire_time: null, email_reply_to: '', party_order_defined: false });
  });

  it('ignores read-only fields sent back', async () => {
    const contract = await newDraft(t);
    const current = (await t.api('GET', contract.self)).body;
    const response = await t.api('PUT', contract.self, {
      body: {
        ...current,
        is_signed: true,
        sent_time: '2020-01-01 00:00:00',
        created_by: clerkPath,
        pdf_preview_uri: 'x',
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(current);
  });

  it('unlinks a template with null and keeps the rendered PDF', async () => {
    const template = await t.api('POST', '/api/contract_templates', {
      body: { name: 'Mall', content: 'Text från mallen.' },
    });
    const contract = await t.api('POST', '/api/contracts', { body: { template: template.body.self } });
    const pdf = await t.api('GET', `${contract.body.self}/pdf`);
    const unlinked = await t.api('PUT', contract.body.self, { body: { template: null } });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.template).toBeNull();
    expect((await t.api('GET', `${contract.body.self}/pdf`)).text).toBe(pdf.text);
  });

  it('refuses bad input of every kind, one line per field, changing nothing', async () => {
    const contract = await newDraft(t);
    const before = await contractState(t, contract.id);
    const lines = async (body: unknown) => {
      const response = await t.api('PUT', contract.self, { body });
      expectProblem(response, 400, 'validation-failed');
      return response.body.validation_errors.sort();
    };
    expect(
      await lines({
        name: 'n'.repeat(1001),
        language: 'ja',
        email_invite_content: 'x'.repeat(100_001),
        email_reply_to: 'nobody',
        party_order_defined: 'yes',
        show_identity_number: 1,
        require_auth: 'BANKID',
        expire_time: 'tomorrow',
        template: 12,
        status: 'signed',
      }),
    ).toEqual(
      [
        'email_invite_content: must be at most 100000 characters',
        'email_reply_to: must be an e-mail address or empty',
        'expire_time: must be a timestamp of the form YYYY-MM-DD HH:MM:SS',
        'language: must be one of en, sv, da, nb, fi, de, fr, es, it, nl, pl, pt, ar',
        'name: must be at most 1000 characters',
        'party_order_defined: must be true or false',
        'require_auth: must be one of NONE, EMAIL_CODE, SMS_CODE',
        'show_identity_number: must be true or false',
        'status: unknown field',
        "template: must be a path of the form /api/contract_templates/<id> (the resource's self), not a bare id",
      ].sort(),
    );
    expect(await lines({ expire_time: stockholm(-1) })).toEqual(['expire_time: must be in the future']);
    expect(await lines({ expire_time: '2030-02-30 10:00:00' })).toEqual([
      'expire_time: is not a real time in Europe/Stockholm',
    ]);
    expect(await lines({ template: '/api/contract_templates/424242' })).toEqual([
      'template: /api/contract_templates/424242 is no contract template',
    ]);
    expectProblem(
      await t.api('PUT', contract.self, { raw: { data: '{', contentType: 'application/json' } }),
      400,
      'malformed-json',
    );
    expectProblem(
      await t.api('PUT', contract.self, { raw: { data: 'name=x', contentType: 'text/plain' } }),
      415,
      'unsupported-media-type',
    );
    expectProblem(await t.api('PUT', '/api/contracts/999999', { body: { name: 'x' } }), 404, 'not-found');
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('answers 404 for unknown contracts on every method', async () => {
    for (const method of ['GET', 'DELETE'])
      expectProblem(await t.api(method, '/api/contracts/999999'), 404, 'not-found');
    expectProblem(await t.api('GET', '/api/contracts/999999/pdf'), 404, 'not-found');
    expectProblem(await t.api('GET', '/api/contracts/0'), 404, 'not-found');
    expectProblem(await t.api('PATCH', '/api/contracts/1'), 405, 'method-not-allowed');
  });
});
