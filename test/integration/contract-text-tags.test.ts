import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState, partyBody } from '../helpers/contracts';
import { renderGray, wordBoxes, type GrayImage, type WordBox } from '../helpers/pdf-tools';
import { makePdf } from '../helpers/pdfs';
import { expectProblem } from '../helpers/problems';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { signingClient } from '../helpers/signing';
import { LEASE_LINES, makeTaggedPdf } from '../helpers/tagged-pdf';

const PAGE_HEIGHT = 841.89;

/** Where a tag is on its page, as poppler reads the PDF (an independent reader): the tag is one word. */
function tagBoxes(pdf: Uint8Array): Map<string, WordBox> {
  const file = path.join(makeTempDir('signdesk-tags-'), 'tagged.pdf');
  fs.writeFileSync(file, pdf);
  return new Map(
    wordBoxes(file)
      .filter((box) => box.word.startsWith('{{'))
      .map((box) => [`${box.page}:${box.word}`, box]),
  );
}

async function uploadTagged(t: TestServer, rotate?: number): Promise<string> {
  const created = await t.api('POST', '/api/contracts', {
    raw: { data: await makeTaggedPdf({ pages: 3, lines: LEASE_LINES, rotate }), contentType: 'application/pdf' },
  });
  expect(created.status).toBe(201);
  return created.body.self;
}

async function addParties(t: TestServer, self: string, count: number): Promise<string[]> {
  const names = ['Lena Landlord', 'Tor Tenant', 'Third Party'];
  const paths: string[] = [];
  for (const name of names.slice(0, count)) {
    const party = await t.api('POST', `${self}/parties`, {
      body: partyBody({ name, email: `${name.split(' ')[0]!.toLowerCase()}@example.se`, delivery_method: 'NONE' }),
    });
    paths.push(party.body.self);
  }
  return paths;
}

/** The share of dark pixels in a box of a page rendered at 72 dpi. */
function inkIn(image: GrayImage, box: { x: number; y: number; width: number; height: number }): number {
  let dark = 0;
  let all = 0;
  for (let y = Math.ceil(box.y); y < Math.floor(box.y + box.height); y += 1) {
    for (let x = Math.ceil(box.x); x < Math.floor(box.x + box.width); x += 1) {
      all += 1;
      if (image.pixels[y * image.width + x]! < 128) dark += 1;
    }
  }
  return dark / Math.max(1, all);
}

/** The first test to read a PDF's text waits for pdf.js to load on the sandbox's worker (seconds under tsx in a checkout). */
const LOADS_PDFJS_MS = 120_000;

describe('text tags', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it(
    'makes one field per tag, over the tag, for the party at its position; a tag split into runs too',
    async () => {
      const self = await uploadTagged(t);
      const [landlord, tenant] = await addParties(t, self, 2);
      const made = await t.api('POST', `${self}/annotations/from_tags`);
      expect(made.status, made.text).toBe(201);
      const summary = made.body.map((field: any) => [field.pdf_page, field.type, field.party_id]);
      expect(summary).toEqual([
        [1, 'NAME', tenant],
        [1, 'CHECKBOX', tenant],
        [2, 'TEXT', landlord],
        [2, 'INITIALS', tenant],
        [3, 'SIGNATURE', landlord],
        [3, 'DATE', landlord],
        [3, 'SIGNATURE', tenant],
      ]);
      for (const field of made.body)
        expect(field).toMatchObject({
          input_required: true,
          render_when_signed: true,
          content: '',
          created_by: t.adminPath,
        });

      // Over the tag: the name field starts where the tag does and covers its line.
      const boxes = tagBoxes(await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }));
      const name = boxes.get('1:{{name:2}}')!;
      const nameField = made.body[0];
      expect(nameField.pos_x).toBeCloseTo(name.x, 0);
      expect(nameField.pos_y).toBeLessThanOrEqual(name.y + 0.5);
      expect(nameField.pos_y + nameField.height).toBeGreaterThanOrEqual(name.y + name.height - 0.5);
      // At the end of its line a name field grows into the blank after its tag, to 120 points.
      expect(nameField.width).toBe(120);
      // The tag split over three runs is found whole, its box from its first to its last piece.
      const initials = boxes.get('2:{{initials:2}}')!;
      expect(made.body[3].pos_x).toBeCloseTo(initials.x, 0);
      expect(made.body[3].width).toBeCloseTo(initials.width, 0);
      // A signature is as wide as its tag and grows upwards into the blank above it: 36 points here.
      const signature = boxes.get('3:{{signature:1}}')!;
      expect(made.body[4].width).toBeCloseTo(signature.width, 0);
      expect(made.body[4].height).toBe(36);
      expect(made.body[4].pos_y + made.body[4].height).toBeLessThanOrEqual(signature.y + signature.height + 0.5);
      expect(made.body[4].pos_y + made.body[4].height).toBeGreaterThan(signature.y + signature.height - 2);
      // A checkbox is a square at the tag's start.
      expect(made.body[1].width).toBe(made.body[1].height);

      const listed = await t.api('GET', `${self}/annotations?per_page=100`);
      expect(listed.body).toHaveLength(7);
      const log = await t.api('GET', `${self}/activity_log?per_page=100`);
      expect(log.body.filter((entry: any) => entry.event === 'annotation.added')).toHaveLength(7);

      // Again: every tag has its field already, so nothing more is made.
      const again = await t.api('POST', `${self}/annotations/from_tags`);
      expect(again.status).toBe(201);
      expect(again.body).toEqual([]);
      // A field deleted is made again from its tag.
      expect((await t.api('DELETE', made.body[0].self)).status).toBe(204);
      const remade = await t.api('POST', `${self}/annotations/from_tags`);
      expect(remade.body.map((field: any) => field.type)).toEqual(['NAME']);
    },
    LOADS_PDFJS_MS,
  );

  it('names the tags whose party does not exist and makes nothing', async () => {
    const self = await uploadTagged(t);
    await addParties(t, self, 1);
    const id = Number(self.split('/').at(-1));
    const before = await contractState(t, id);
    const refused = await t.api('POST', `${self}/annotations/from_tags`);
    expectProblem(refused, 400, 'validation-failed');
    expect(refused.body.detail).toContain('{{name:2}}');
    expect(refused.body.detail).toContain('{{signature:2}}');
    expect(refused.body.detail).not.toContain('{{signature:1}}');
    expect(refused.body.validation_errors).toContain(
      '{{checkbox:2}} on page 1, line 4: there is no party 2: the contract has 1 party (1 = the first added)',
    );
    expect(
      refused.body.validation_errors.some((line: string) => line.startsWith('{{initials:2}} on page 2, line 3:')),
    ).toBe(true);
    expect(await contractState(t, id)).toEqual(before);
  });

  it('answers 409 once sent, 404 for no contract, and nothing for a PDF without tags', async () => {
    const self = await uploadTagged(t);
    await addParties(t, self, 2);
    expect((await t.api('POST', `${self}/send`, { body: { silent: true } })).status).toBe(200);
    expectProblem(await t.api('POST', `${self}/annotations/from_tags`), 409, 'contract-state');
    expectProblem(await t.api('POST', '/api/contracts/999999/annotations/from_tags'), 404, 'not-found');
    const plain = await t.api('POST', '/api/contracts', {
      raw: {
        data: await makePdf({ pages: 2, text: () => 'No {{tags}} here, nor {signature:1}' }),
        contentType: 'application/pdf',
      },
    });
    const none = await t.api('POST', `${plain.body.self}/annotations/from_tags`);
    expect(none.status).toBe(201);
    expect(none.body).toEqual([]);
  });

  it('places tags of a rotated page in the page as displayed', async () => {
    const self = await uploadTagged(t, 90);
    await addParties(t, self, 2);
    const made = await t.api('POST', `${self}/annotations/from_tags`);
    expect(made.status, made.text).toBe(201);
    // Turned a quarter clockwise, a line of text runs down the page, near its right edge.
    const name = made.body[0];
    expect(name.type).toBe('NAME');
    const tag = tagBoxes(await makeTaggedPdf({ pages: 3, lines: LEASE_LINES, rotate: 90 })).get('1:{{name:2}}')!;
    expect(tag.x).toBeGreaterThan(PAGE_HEIGHT / 2);
    expect(name.pos_x).toBeCloseTo(tag.x, 0);
    expect(name.pos_y).toBeCloseTo(tag.y, 0);
    expect(name.height).toBeCloseTo(tag.height, 0);
  });

  it('paints each tag white in the signed PDF: the tag never shows beside its field', async () => {
    const self = await uploadTagged(t);
    const parties = await addParties(t, self, 2);
    expect((await t.api('POST', `${self}/annotations/from_tags`)).status).toBe(201);
    expect((await t.api('POST', `${self}/send`, { body: { silent: true } })).status).toBe(200);
    for (const party of parties) {
      const link = (await t.api('GET', party)).body.contract_url;
      const client = signingClient(link);
      await client.state();
      const fields = (await client.state()).body.fields as Array<{ id: number; type: string }>;
      const values: Record<string, string | boolean> = {};
      for (const field of fields) {
        if (field.type === 'CHECKBOX') values[field.id] = true;
        if (field.type === 'TEXT') values[field.id] = 'Pets allowed';
      }
      expect((await client.accept(values, 'Signer Name')).status).toBe(200);
    }
    const signed = await t.api('GET', `${self}/signed_pdf`, { headers: { accept: 'application/pdf' } });
    expect(signed.status).toBe(200);
    const dir = makeTempDir('signdesk-tags-');
    const original = path.join(dir, 'original.pdf');
    const sealed = path.join(dir, 'signed.pdf');
    fs.writeFileSync(original, await makeTaggedPdf({ pages: 3, lines: LEASE_LINES }));
    const bytes = await fetch(`${t.url}${self}/signed_pdf`, {
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
    });
    fs.writeFileSync(sealed, Buffer.from(await bytes.arrayBuffer()));
    // The checkbox is a square at the tag's start: the rest of the tag, ink in the original, is blank now.
    const tag = tagBoxes(await makeTaggedPdf({ pages: 3, lines: LEASE_LINES })).get('1:{{checkbox:2}}')!;
    const rest = { x: tag.x + 20, y: tag.y + 1, width: tag.width - 22, height: tag.height - 2 };
    expect(inkIn(renderGray(original, 1, dir), rest)).toBeGreaterThan(0.05);
    expect(inkIn(renderGray(sealed, 1, dir), rest)).toBe(0);
    // The text before the tag is untouched.
    const before = { x: LEASE_LINES[2]!.x, y: tag.y + 1, width: tag.x - LEASE_LINES[2]!.x - 3, height: tag.height - 2 };
    expect(inkIn(renderGray(sealed, 1, dir), before)).toBeCloseTo(inkIn(renderGray(original, 1, dir), before), 2);
  });
});
