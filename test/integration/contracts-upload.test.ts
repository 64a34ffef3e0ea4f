import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptPdf, makePdf, makePdfOfSize } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

const MIB2 = 2_097_152;
const PDF = 'application/pdf';

describe('POST /api/contracts with a PDF body', () => {
  let t: TestServer;
  const rows = async (table: string) =>
    ((await rawSql(t.server.ctx.db).get(`SELECT count(*) AS n FROM ${table}`)) as { n: number }).n;
  const snapshot = async () => ({
    total: (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total'),
    contracts: await rows('contracts'),
    files: await rows('stored_files'),
    log: await rows('activity_log'),
  });
  /** Sends a body that must be refused, and checks that nothing at all was stored. */
  const expectRefused = async (data: Uint8Array | string, status: number, anchor: string, contentType = PDF) => {
    const before = await snapshot();
    const response = await t.api('POST', '/api/contracts', { raw: { data, contentType } });
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.type).toMatch(new RegExp(`#${anchor}$`));
    expect(await snapshot()).toEqual(before);
    return response;
  };

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('takes a 60-page PDF, keeps it byte for byte and serves it at pdf_preview_uri', async () => {
    const pdf = await makePdf({ pages: 60 });
    const response = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: PDF } });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: '',
      language: 'en',
      created_by: t.adminPath,
      sent_time: null,
      template: null,
      is_signed: false,
      is_rejected: false,
      is_answered: false,
    });
    expect(response.body.self).toMatch(/^\/api\/contracts\/\d+$/);
    expect(response.body.pdf_preview_uri).toBe(`${t.url}${response.body.self}/pdf`);

    const preview = await fetch(response.body.pdf_preview_uri, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe(PDF);
    expect(Buffer.from(await preview.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    expect((await fetch(response.body.pdf_preview_uri)).status).toBe(401);
  });

  it('takes a PDF of exactly 2 MiB and refuses one byte more with 413', async () => {
    const exact = await makePdfOfSize(MIB2);
    expect(exact.length).toBe(MIB2);
    const accepted = await t.api('POST', '/api/contracts', { raw: { data: exact, contentType: PDF } });
    expect(accepted.status).toBe(201);

    const over = await makePdfOfSize(MIB2 + 1, 1);
    expect(over.length).toBe(MIB2 + 1);
    await expectRefused(over, 413, 'payload-too-large');
  });

  it('takes a PDF padded with a trailing comment after %%EOF', async () => {
    const pdf = Buffer.concat([Buffer.from(await makePdf()), Buffer.from(`\n%${'x'.repeat(5_000)}\n`)]);
    expect((await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: PDF } })).status).toBe(201);
  });

  it('refuses a truncated PDF as damaged', async () => {
    const pdf = await makePdf({ pages: 5 });
    for (const cut of [0.5, 0.9, 0.995]) {
      const response = await expectRefused(pdf.slice(0, Math.floor(pdf.length * cut)), 400, 'invalid-pdf');
      expect(response.body.detail).toMatch(/cut short|damaged/);
    }
  });

  it('refuses a body that is not a PDF although it says so', async () => {
    const response = await expectRefused('<html><body>not a pdf</body></html>', 400, 'invalid-pdf');
    expect(response.body.detail).toMatch(/not a PDF/);
    await expectRefused(new Uint8Array(0), 400, 'invalid-pdf');
    await expectRefused('%PDF-1.7\nthis is no PDF\nstartxref\n0\n%%EOF\n', 400, 'invalid-pdf');
  });

  it('refuses encrypted PDFs, with and without a user password', async () => {
    const pdf = await makePdf({ pages: 3 });
    for (const password of ['user-secret', '']) {
      const response = await expectRefused(encryptPdf(pdf, password), 400, 'invalid-pdf');
      expect(response.body.detail).toMatch(/encrypted/);
    }
  });

  it('refuses other content types with 415 and a missing body type too', async () => {
    const pdf = await makePdf();
    await expectRefused(pdf, 415, 'unsupported-media-type', 'application/octet-stream');
    await expectRefused(pdf, 415, 'unsupported-media-type', 'image/png');
  });

  it('records page sizes as displayed, rotation applied', async () => {
    const pdf = await makePdf({ pages: 2, size: [612, 792], rotate: 90 });
    const contract = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: PDF } });
    const party = await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Ann', email: 'ann@example.se' },
    });
    const box = { party_id: party.body.self, pdf_page: 2, type: 'SIGNATURE', width: 100, height: 50 };
    const fits = await t.api('POST', `${contract.body.self}/annotations`, { body: { ...box, pos_x: 692, pos_y: 562 } });
    expect(fits.status).toBe(201);
    const off = await t.api('POST', `${contract.body.self}/annotations`, { body: { ...box, pos_x: 693, pos_y: 0 } });
    expect(off.status).toBe(400);
    expect(off.body.validation_errors).toEqual([expect.stringMatching(/^pos_x: .*width of page 2 \(792 points\)/)]);
  });

  it('keeps one copy of the same bytes', async () => {
    const pdf = await makePdf({ text: () => 'Same bytes twice' });
    const before = await rows('stored_files');
    const first = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: PDF } });
    const second = await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: PDF } });
    expect(first.body.self).not.toBe(second.body.self);
    expect(await rows('stored_files')).toBe(before + 1);
    expect((await t.api('DELETE', first.body.self)).status).toBe(204);
    expect(await rows('stored_files')).toBe(before + 1);
    const preview = await t.api('GET', `${second.body.self}/pdf`);
    expect(preview.status).toBe(200);
    expect((await t.api('DELETE', second.body.self)).status).toBe(204);
    expect(await rows('stored_files')).toBe(before);
  });
});
