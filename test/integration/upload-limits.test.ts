import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { makePdf } from '../helpers/pdfs';

/** A 2.3 MB file, as the office tried: over the interface's 2 MiB limit. */
const SIZE = 2_300_000;

describe('Upload limits named in their refusals', () => {
  let t: TestServer;
  let contract: string;
  let template: string;
  beforeAll(async () => {
    t = await startTestServer();
    const pdf = await makePdf();
    contract = (await t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } })).body
      .self;
    template = (await t.api('POST', '/api/contract_templates', { body: { name: 'Lease' } })).body.self;
    await t.api('PUT', `${template}/pdf`, { raw: { data: pdf, contentType: 'application/pdf' } });
  });
  afterAll(() => t.close());

  const big = () => new Uint8Array(SIZE).fill(32);

  it('names the PDF’s size and the 2 MiB limit, for a contract and a template, and makes nothing', async () => {
    const before = (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total');
    const refused = await t.api('POST', '/api/contracts', { raw: { data: big(), contentType: 'application/pdf' } });
    expectProblem(refused, 413, 'payload-too-large');
    expect(refused.body.detail).toBe('The PDF is 2.2 MiB; the limit is 2 MiB.');
    expect((await t.api('GET', '/api/contracts')).headers.get('pagination-items-total')).toBe(before);
    const onTemplate = await t.api('PUT', `${template}/pdf`, { raw: { data: big(), contentType: 'application/pdf' } });
    expectProblem(onTemplate, 413, 'payload-too-large');
    expect(onTemplate.body.detail).toBe('The PDF is 2.2 MiB; the limit is 2 MiB.');
  });

  it('names the limits of attachments, CSV files and JSON bodies', async () => {
    const attachment = await t.api('POST', `${contract}/attachments`, {
      raw: { data: big(), contentType: 'application/octet-stream' },
      headers: { 'content-disposition': 'attachment; filename="scan.bin"' },
    });
    expectProblem(attachment, 413, 'payload-too-large');
    expect(attachment.body.detail).toBe('The attachment is 2.2 MiB; the limit is 2 MiB.');
    expect((await t.api('GET', `${contract}/attachments`)).body).toEqual([]);
    const csv = await t.api('POST', `${template}/bulk_sends/preview`, {
      raw: { data: big(), contentType: 'text/csv' },
    });
    expectProblem(csv, 413, 'payload-too-large');
    expect(csv.body.detail).toBe('The CSV file is 2.2 MiB; the limit is 2 MiB.');
    const json = await t.api('POST', '/api/contract_templates', {
      raw: { data: JSON.stringify({ name: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
    });
    expectProblem(json, 413, 'payload-too-large');
    expect(json.body.detail).toBe('The body is 1.1 MiB; the limit is 1 MiB.');
  });

  it('rounds up, so one byte over the limit never reads as the limit itself', async () => {
    const over = new Uint8Array(2 * 1024 * 1024 + 1).fill(32);
    const refused = await t.api('POST', '/api/contracts', { raw: { data: over, contentType: 'application/pdf' } });
    expect(refused.body.detail).toBe('The PDF is 2.1 MiB; the limit is 2 MiB.');
  });
});
