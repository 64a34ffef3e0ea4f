import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, pdfPages, pdfText } from '../helpers/pdfs';
import { servedPdf, startTestServer, type TestServer } from '../helpers/server';

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

describe('contracts made from templates', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('renders header, content and footer with Swedish letters intact and page numbers', async () => {
    const template = await t.api('POST', '/api/contract_templates', {
      body: {
        name: 'Hyresavtal',
        header: 'Fastighets AB Ängen · Storgatan 1',
        content: [
          '# Hyresavtal för lägenhet',
          '',
          'Mellan **Åsa Öberg** och *Örjan Ågren* gäller följande. Café, naïve, Ü.',
          '',
          '## Villkor',
          '',
          '- Hyran är 10 000 kr per månad',
          '- Betalas före den 25:e',
          '1. Första',
          '2. Andra',
          '',
          ...Array.from({ length: 90 }, (_, i) => `Stycke ${i + 1} om räkmacka och ölkorv.\n`),
        ].join('\n'),
        footer: 'Org.nr 556677-8899',
        footer_type: 'SIMPLE',
      },
    });
    expect(template.status).toBe(201);
    const contract = await t.api('POST', '/api/contracts', {
      body: { template: template.body.self, language: 'sv', name: 'Lägenhet 3B' },
    });
    expect(contract.status).toBe(201);
    expect(contract.body).toMatchObject({
      template: template.body.self,
      name: 'Lägenhet 3B',
      language: 'sv',
      created_by: t.adminPath,
    });
    expect(contract.body.content).toBe(template.body.content);

    const pdf = await servedPdf(t, contract.body.self);
    const pages = pdfPages(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = squash(pdfText(pdf));
    expect(text).toContain('Hyresavtal för lägenhet');
    expect(text).toContain('Mellan Åsa Öberg och Örjan Ågren gäller följande. Café, naïve, Ü.');
    expect(text).toContain('Fastighets AB Ängen · Storgatan 1');
    expect(text).toContain('Org.nr 556677-8899');
    expect(text).toContain('• Hyran är 10 000 kr per månad');
    expect(text).toContain('Stycke 90 om räkmacka och ölkorv.');
    expect(text).toContain(`Sida 1 av ${pages}`);
    expect(text).toContain(`Sida ${pages} av ${pages}`);
  });

  it('re-renders the PDF when content changes on a draft', async () => {
    const template = await t.api('POST', '/api/contract_templates', {
      body: { name: 'NDA', content: 'Första versionen.', footer_type: 'NONE' },
    });
    const contract = await t.api('POST', '/api/contracts', { body: { template: template.body.self } });
    expect(squash(pdfText(await servedPdf(t, contract.body.self)))).toBe('Första versionen.');

    const changed = await t.api('PUT', contract.body.self, {
      body: { content: 'Andra versionen, **fet** och ändrad: å ä ö Å Ä Ö é.' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.content).toBe('Andra versionen, **fet** och ändrad: å ä ö Å Ä Ö é.');
    const text = squash(pdfText(await servedPdf(t, contract.body.self)));
    expect(text).toBe('Andra versionen, fet och ändrad: å ä ö Å Ä Ö é.');
    // The template itself is untouched by the contract's change.
    expect((await t.api('GET', template.body.self)).body.content).toBe('Första versionen.');
  });

  it('speaks English page numbers for language en', async () => {
    const contract = await t.api('POST', '/api/contracts', { body: { content: 'Hello there.' } });
    expect(contract.status).toBe(201);
    expect(squash(pdfText(await servedPdf(t, contract.body.self)))).toBe('Hello there. Page 1 of 1');
  });

  it('renders a contract from JSON without a template, and from an empty JSON body', async () => {
    const empty = await t.api('POST', '/api/contracts', { raw: { data: '', contentType: 'application/json' } });
    expect(empty.status).toBe(201);
    expect(pdfPages(await servedPdf(t, empty.body.self))).toBe(1);
  });

  it('refuses an unknown template, unknown fields and a content too long, storing nothing', async () => {
    const before = (await t.api('GET', '/api/contracts')).headers.get('pagination-items-total');
    const unknown = await t.api('POST', '/api/contracts', { body: { template: '/api/contract_templates/9999' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.validation_errors).toEqual(['template: /api/contract_templates/9999 is no contract template']);
    const wrong = await t.api('POST', '/api/contracts', {
      body: { template: '/api/users/1', colour: 'blue', language: 'ja' },
    });
    expect(wrong.body.validation_errors.sort()).toEqual(
      [
        'colour: unknown field',
        'language: must be one of en, sv, da, nb, fi, de, fr, es, it, nl, pl, pt, ar',
        'template: must be a path of the form /api/contract_templates/<id>',
      ].sort(),
    );
    const long = await t.api('POST', '/api/contracts', { body: { content: 'x'.repeat(100_001) } });
    expect(long.body.validation_errors).toEqual(['content: must be at most 100000 characters']);
    const tooManyPages = await t.api('POST', '/api/contracts', { body: { content: '# a\n'.repeat(25_000) } });
    expect(tooManyPages.status).toBe(400);
    expect(tooManyPages.body.validation_errors).toEqual([
      expect.stringMatching(/^content: renders to \d+ pages; at most 1000$/),
    ]);
    expect((await t.api('GET', '/api/contracts')).headers.get('pagination-items-total')).toBe(before);
  });

  it('refuses new content for an uploaded PDF, but renders it once a template is set', async () => {
    const upload = await t.api('POST', '/api/contracts', {
      raw: { data: await makePdf({ text: () => 'Uploaded original' }), contentType: 'application/pdf' },
    });
    const refused = await t.api('PUT', upload.body.self, { body: { content: 'Replace me' } });
    expect(refused.status).toBe(400);
    expect(refused.body.validation_errors).toEqual([
      expect.stringMatching(/^content: this contract's PDF was uploaded/),
    ]);
    expect(squash(pdfText(await servedPdf(t, upload.body.self)))).toBe('Uploaded original');
    expect((await t.api('PUT', upload.body.self, { body: { content: '', name: 'Same content is fine' } })).status).toBe(
      200,
    );

    const template = await t.api('POST', '/api/contract_templates', {
      body: { name: 'Swap', content: 'From the template.', footer_type: 'NONE' },
    });
    const swapped = await t.api('PUT', upload.body.self, { body: { template: template.body.self } });
    expect(swapped.status).toBe(200);
    expect(swapped.body.template).toBe(template.body.self);
    expect(squash(pdfText(await servedPdf(t, upload.body.self)))).toBe('From the template.');
  });

  it('refuses a re-render that would leave an annotation off the page, changing nothing', async () => {
    const contract = await t.api('POST', '/api/contracts', {
      body: { content: 'Page one.\n\n' + 'Filler paragraph.\n\n'.repeat(120) },
    });
    const pdfBefore = await servedPdf(t, contract.body.self);
    expect(pdfPages(pdfBefore)).toBeGreaterThanOrEqual(3);
    const party = await t.api('POST', `${contract.body.self}/parties`, {
      body: { name: 'Ann', email: 'ann@example.se' },
    });
    const field = await t.api('POST', `${contract.body.self}/annotations`, {
      body: { party_id: party.body.self, pdf_page: 3, pos_x: 10, pos_y: 10, width: 100, height: 30, type: 'SIGNATURE' },
    });
    expect(field.status).toBe(201);
    const refused = await t.api('PUT', contract.body.self, { body: { content: 'Short now.' } });
    expect(refused.status).toBe(400);
    expect(refused.body.validation_errors).toEqual([
      expect.stringContaining(`annotation ${field.body.self} off its page`),
    ]);
    expect(Buffer.from(await servedPdf(t, contract.body.self)).equals(Buffer.from(pdfBefore))).toBe(true);
    expect((await t.api('GET', contract.body.self)).body.content).toBe(contract.body.content);
  });

  it('previews a template as a PDF for the template editor', async () => {
    const template = await t.api('POST', '/api/contract_templates', {
      body: { name: 'Förhandsvisning', content: '# Rubrik\n\nBrödtext med åäö.' },
    });
    const response = await fetch(`${t.url}${template.body.self}/pdf_preview?language=sv`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(squash(pdfText(new Uint8Array(await response.arrayBuffer())))).toBe('Rubrik Brödtext med åäö. Sida 1 av 1');
    expect((await t.api('GET', '/api/contract_templates/9999/pdf_preview')).status).toBe(404);
    expect((await t.api('GET', `${template.body.self}/pdf_preview?language=ja`)).body.validation_errors).toEqual([
      'language: must be one of en, sv, da, nb, fi, de, fr, es, it, nl, pl, pt, ar',
    ]);
  });
});
