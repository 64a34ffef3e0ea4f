import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState, fieldBody, newDraft, partyBody } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { makePdf } from '../helpers/pdfs';
import { servedPdf, startTestServer, type RequestOptions, type TestServer } from '../helpers/server';

describe('a sent contract is read-only', () => {
  let t: TestServer;
  let contract: { self: string; id: number };
  let party: string;
  let field: string;
  let attachment: string;

  beforeAll(async () => {
    t = await startTestServer();
    contract = await newDraft(t, 2);
    party = (await t.api('POST', `${contract.self}/parties`, { body: partyBody() })).body.self;
    field = (await t.api('POST', `${contract.self}/annotations`, { body: fieldBody(party) })).body.self;
    attachment = (
      await t.api('POST', `${contract.self}/attachments`, {
        raw: { data: 'terms', contentType: 'text/plain' },
        headers: { 'content-disposition': 'attachment; filename="terms.txt"' },
      })
    ).body.self;
  });
  afterAll(() => t.close());

  it('sends a draft: 200 with the contract, sent_time set, found under status=sent', async () => {
    const response = await t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    expect(response.status).toBe(200);
    expect(response.body.self).toBe(contract.self);
    expect(response.body.sent_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(response.body).toMatchObject({ is_signed: false, is_rejected: false, is_answered: false });
    const sent = await t.api('GET', '/api/contracts?status=sent');
    expect(sent.body.map((row: { self: string }) => row.self)).toContain(contract.self);
    const drafts = await t.api('GET', '/api/contracts?status=draft');
    expect(drafts.body.map((row: { self: string }) => row.self)).not.toContain(contract.self);
  });

  const writes: Array<[string, () => [string, string, RequestOptions?]]> = [
    ['PUT the contract', () => ['PUT', contract.self, { body: { name: 'Changed' } }]],
    ['PUT the contract content', () => ['PUT', contract.self, { body: { content: 'x' } }]],
    ['DELETE the contract', () => ['DELETE', contract.self]],
    ['send it again', () => ['POST', `${contract.self}/send`]],
    ['POST a party', () => ['POST', `${contract.self}/parties`, { body: partyBody({ name: 'Late' }) }]],
    ['PUT a party', () => ['PUT', party, { body: { name: 'Changed' } }]],
    ['DELETE a party', () => ['DELETE', party]],
    ['POST an annotation', () => ['POST', `${contract.self}/annotations`, { body: fieldBody(party) }]],
    ['PUT an annotation', () => ['PUT', field, { body: { pos_x: 1 } }]],
    ['DELETE an annotation', () => ['DELETE', field]],
    [
      'POST an attachment',
      () => [
        'POST',
        `${contract.self}/attachments`,
        {
          raw: { data: 'more', contentType: 'text/plain' },
          headers: { 'content-disposition': 'attachment; filename="more.txt"' },
        },
      ],
    ],
    ['DELETE an attachment', () => ['DELETE', attachment]],
  ];

  it.each(writes)('%s answers 409 contract-state and changes nothing', async (_name, request) => {
    const before = await contractState(t, contract.id);
    const [method, path, options] = request();
    const response = await t.api(method, path, options);
    expectProblem(response, 409, 'contract-state');
    expect(response.body.detail).toBe(
      `Contract ${contract.self} is sent and can no longer be changed; only a draft can.`,
    );
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('still reads everything', async () => {
    for (const path of [
      contract.self,
      `${contract.self}/pdf`,
      `${contract.self}/parties`,
      party,
      `${contract.self}/annotations`,
      field,
      `${contract.self}/attachments`,
      attachment,
      `${attachment}/preview`,
      `${contract.self}/activity_log`,
    ]) {
      expect((await t.api('GET', path)).status).toBe(200);
    }
  });

  it('refuses to send a contract without a party that signs, or an unknown one', async () => {
    const lonely = await newDraft(t);
    expectProblem(await t.api('POST', `${lonely.self}/send`), 409, 'conflict');
    await t.api('POST', `${lonely.self}/parties`, { body: partyBody({ sign_type: 'VIEWER' }) });
    const before = await contractState(t, lonely.id);
    expectProblem(await t.api('POST', `${lonely.self}/send`), 409, 'conflict');
    expectProblem(
      await t.api('POST', `${lonely.self}/send`, { body: { silent: 'yes', loud: true } }),
      400,
      'validation-failed',
    );
    expect(await contractState(t, lonely.id)).toEqual(before);
    expectProblem(await t.api('POST', '/api/contracts/999999/send'), 404, 'not-found');
  });

  it('keeps an uploaded PDF byte for byte through sending', async () => {
    const pdf = await makePdf({ pages: 3, text: (page) => `Original ${page}` });
    const made = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } });
    await t.api('POST', `${made.body.self}/parties`, { body: partyBody() });
    expect((await t.api('POST', `${made.body.self}/send`, { form: { silent: 'true' } })).status).toBe(200);
    expect((await servedPdf(t, made.body.self)).equals(Buffer.from(pdf))).toBe(true);
  });
});
