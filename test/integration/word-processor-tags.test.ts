import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, setCharacterSpacing, setCharacterSqueeze, setWordSpacing, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATION_TYPES } from '../../shared/api/enums';
import { contractState, partyBody } from '../helpers/contracts';
import { renderGray, wordBoxes, type GrayImage } from '../helpers/pdf-tools';
import { inkBand, pixelsIn, popplerTags, type PopplerTag } from '../helpers/poppler-tags';
import { expectProblem } from '../helpers/problems';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { signingClient } from '../helpers/signing';
import { makeTaggedPdf } from '../helpers/tagged-pdf';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/word-processor');
/** LibreOffice 7.4 exports (README there): four faces, and Carlito by way of a .docx. */
const PDFS = ['contract-serif', 'contract-sans', 'contract-carlito', 'contract-dejavu', 'contract-carlito-word'];
const LOADS_PDFJS_MS = 120_000;
/** The API's annotation types, as a wrong tag's problem lists them. */
const TYPES = ANNOTATION_TYPES.map((type) => type.toLowerCase()).join(', ');
const NOTO_SANS = '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf';
/** How far a field may be from its tag, in points. */
const TOLERANCE = 0.5;

async function upload(t: TestServer, bytes: Uint8Array): Promise<{ self: string; parties: string[] }> {
  const created = await t.api('POST', '/api/contracts', { raw: { data: bytes, contentType: 'application/pdf' } });
  expect(created.status).toBe(201);
  const parties: string[] = [];
  for (const name of ['Byrån Åkesson AB', 'Märta Ångström-Öhman']) {
    const email = `${parties.length + 1}@example.se`;
    const party = await t.api('POST', `${created.body.self}/parties`, {
      body: partyBody({ name, email, delivery_method: 'NONE' }),
    });
    parties.push(party.body.self);
  }
  return { self: created.body.self, parties };
}

/** The field made from a tag: the one whose left edge is at the tag's on its page and line. */
function fieldOf(fields: any[], tag: PopplerTag): any {
  const near = fields.filter(
    (field) =>
      field.pdf_page === tag.page &&
      Math.abs(field.pos_x - tag.x0) <= TOLERANCE &&
      Math.abs(field.pos_y + field.height - tag.baseline) < tag.size * 0.5,
  );
  expect(near, `${tag.text} on page ${tag.page}`).toHaveLength(1);
  return near[0];
}

async function signAll(t: TestServer, parties: string[]): Promise<void> {
  for (const party of parties) {
    const client = signingClient((await t.api('GET', party)).body.contract_url);
    const fields = (await client.state()).body.fields as Array<{ id: number; type: string }>;
    const values: Record<string, string | boolean> = {};
    for (const field of fields) {
      if (field.type === 'CHECKBOX') values[field.id] = true;
      if (field.type === 'TEXT') values[field.id] = '556677-8899';
    }
    expect((await client.accept(values, 'Signer Name')).status).toBe(200);
  }
}

describe('text tags in word-processor PDFs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it(
    'puts every field on its tag within half a point, in every face, bold, justified and in table cells',
    async () => {
      for (const name of PDFS) {
        const file = path.join(FIXTURES, `${name}.pdf`);
        const words = wordBoxes(file);
        const tags = popplerTags(words);
        expect(tags.length, name).toBe(12);
        const { self, parties } = await upload(t, fs.readFileSync(file));
        const made = await t.api('POST', `${self}/annotations/from_tags`);
        expect(made.status, made.text).toBe(201);
        expect(made.body).toHaveLength(tags.length);
        for (const tag of tags) {
          const where = `${name}: ${tag.text}`;
          // The fixtures are 12-point text: poppler's box is 0.95 + 0.35 em high.
          expect(tag.size, where).toBeCloseTo(12, 1);
          const field = fieldOf(made.body, tag);
          const [, type, position] = /^\{\{(\w+):(\d)/.exec(tag.text)!;
          expect(field.type, where).toBe(type!.toUpperCase());
          expect(field.party_id, where).toBe(parties[Number(position) - 1]);
          const bottom = field.pos_y + field.height;
          // Its bottom is the font's descent below the baseline; it rises no higher than the line (or h=).
          expect(bottom - tag.baseline, where).toBeGreaterThan(0.15 * tag.size);
          expect(bottom - tag.baseline, where).toBeLessThanOrEqual(0.35 * tag.size);
          const height = /;h=(\d+)/.exec(tag.text)?.[1];
          if (height) expect(field.height, where).toBe(Number(height));
          else if (field.type === 'SIGNATURE' || field.type === 'INITIALS') {
            // Grown into the blank above (the words there stay untouched: the next test).
            expect(field.height, where).toBeLessThanOrEqual(field.type === 'SIGNATURE' ? 36 : 24);
            expect(field.pos_y, where).toBeLessThan(tag.baseline - 0.7 * tag.size);
          } else {
            expect(field.pos_y, where).toBeGreaterThanOrEqual(tag.top - TOLERANCE);
            expect(field.pos_y, where).toBeLessThan(tag.baseline - 0.7 * tag.size);
          }
          const width = /;w=(\d+)/.exec(tag.text)?.[1];
          if (width) expect(field.width, where).toBe(Number(width));
          else if (field.type === 'CHECKBOX') expect(field.width, where).toBe(field.height);
          else if (field.type === 'SIGNATURE' || field.type === 'INITIALS') {
            if (tag.isWhole) expect(Math.abs(field.pos_x + field.width - tag.x1), where).toBeLessThanOrEqual(TOLERANCE);
          } else {
            // Text grows into the blank after its tag, up to the next word on the line.
            const right = field.pos_x + field.width;
            const next = words
              .filter((word) => word.page === tag.page && Math.abs(word.y - tag.top) < 1 && word.x >= tag.x1 - 0.01)
              .sort((a, b) => a.x - b.x)[0];
            if (tag.isWhole) expect(right, where).toBeGreaterThanOrEqual(tag.x1 - TOLERANCE);
            else expect(right, where).toBeLessThanOrEqual(tag.x1);
            if (next) expect(right, where).toBeLessThanOrEqual(next.x - 1);
            const grown = field.type === 'DATE' ? 80 : 120;
            expect(field.width, where).toBeLessThanOrEqual(Math.max(grown, tag.x1 - tag.x0 + TOLERANCE));
          }
          expect(field.input_required, where).toBe(!tag.text.includes('required=false'));
          // A tag's label (`;label=…`) is what the party reads beside the field.
          expect(field.label, where).toBe(/;label=([^;}]+)/.exec(tag.text)?.[1] ?? '');
        }
      }
    },
    LOADS_PDFJS_MS * 2,
  );

  it(
    'places tags in a composite (Type0, /W) font and under character spacing, word spacing and scaling',
    async () => {
      const doc = await PDFDocument.create();
      doc.registerFontkit(fontkit);
      const noto = await doc.embedFont(fs.readFileSync(createRequire(import.meta.url).resolve(NOTO_SANS)), {
        subset: true,
      });
      const helvetica = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.addPage([595.28, 841.89]);
      page.drawText('Organisationsnummer för kunden: {{initials:2}} och mer', { x: 60, y: 700, size: 11, font: noto });
      page.pushOperators(setCharacterSpacing(0.7), setWordSpacing(3), setCharacterSqueeze(90));
      page.drawText('Spaced and squeezed: {{signature:1}} then more', { x: 60, y: 650, size: 12, font: helvetica });
      page.drawText('Composite, spaced: {{initials:1}} too', { x: 60, y: 600, size: 12, font: noto });
      const bytes = await doc.save({ useObjectStreams: false });
      const file = writeFile(makeTempDir('signdesk-wp-type0-'), 'type0.pdf', bytes);
      const tags = popplerTags(wordBoxes(file));
      expect(tags.map((tag) => tag.text)).toEqual(['{{initials:2}}', '{{signature:1}}', '{{initials:1}}']);
      const { self } = await upload(t, bytes);
      const made = await t.api('POST', `${self}/annotations/from_tags`);
      expect(made.status, made.text).toBe(201);
      // Signatures and initials are as wide as their tags: both edges are the tag's.
      for (const [index, tag] of tags.entries()) {
        const field = made.body[index];
        expect(Math.abs(field.pos_x - tag.x0), tag.text).toBeLessThanOrEqual(TOLERANCE);
        expect(Math.abs(field.pos_x + field.width - tag.x1), tag.text).toBeLessThanOrEqual(TOLERANCE);
      }
    },
    LOADS_PDFJS_MS,
  );

  it('names each tag written wrong with its page and line, and makes nothing', async () => {
    const pdf = await makeTaggedPdf({
      pages: 2,
      lines: [
        { page: 1, x: 60, y: 120, text: 'Landlord: {{signature:1}}' },
        { page: 1, x: 60, y: 160, text: 'Tenant: {{signatur:2}}' },
        { page: 2, x: 60, y: 120, text: 'Guarantor: {{name:3}}' },
        { page: 2, x: 60, y: 160, text: 'Company number: {{text:1;w=wide}} and {{text:1;colour=red}}' },
      ],
    });
    const { self } = await upload(t, pdf);
    const id = Number(self.split('/').at(-1));
    const before = await contractState(t, id);
    const refused = await t.api('POST', `${self}/annotations/from_tags`);
    expectProblem(refused, 400, 'validation-failed');
    expect(refused.body.detail).toContain('{{signatur:2}} (page 1, line 3)');
    expect(refused.body.validation_errors).toEqual([
      `{{signatur:2}} on page 1, line 3: "signatur" is not a field type (did you mean signature?); the types are ${TYPES}`,
      '{{name:3}} on page 2, line 2: there is no party 3: the contract has 2 parties (1 = the first added)',
      '{{text:1;w=wide}} on page 2, line 3: w=wide is not a size: give points from 4 to 1000, e.g. w=40',
      '{{text:1;colour=red}} on page 2, line 3: "colour" is not a tag option; the options are w, h, label, hint, required, options',
    ]);
    expect(await contractState(t, id)).toEqual(before);

    // A PDF template's tags alike, role numbers past the last possible role included.
    const template = await t.api('POST', '/api/contract_templates', { body: { name: 'Tagged lease' } });
    const uploaded = await t.api('PUT', `${template.body.self}/pdf`, {
      raw: { data: pdf, contentType: 'application/pdf' },
    });
    expect(uploaded.status, uploaded.text).toBe(200);
    const refusedToo = await t.api('POST', `${template.body.self}/fields/from_tags`);
    expectProblem(refusedToo, 400, 'validation-failed');
    expect(refusedToo.body.validation_errors).toHaveLength(3);
    expect(refusedToo.body.validation_errors[0]).toMatch(/^\{\{signatur:2\}\} on page 1, line 3: /);
    expect((await t.api('GET', `${template.body.self}/fields`)).body).toEqual([]);
  });

  it(
    "hides the tags in the sealed PDF, on the signing page and in the party's download, and leaves the text around them as it was",
    async () => {
      const file = path.join(FIXTURES, 'contract-serif.pdf');
      const original = fs.readFileSync(file);
      const words = wordBoxes(file).filter((word) => word.page === 1);
      const tags = popplerTags(words);
      const dir = makeTempDir('signdesk-wp-tags-');
      const scale = 2;
      const before = renderGray(file, 1, dir, 72 * scale);

      // Fields on their tags: the sealed PDF is an update of the original, and every other word looks as before.
      const inPlace = await upload(t, original);
      expect((await t.api('POST', `${inPlace.self}/annotations/from_tags`)).status).toBe(201);
      expect((await t.api('POST', `${inPlace.self}/send`, { body: { silent: true } })).status).toBe(200);
      await signAll(t, inPlace.parties);
      const sealed = await fetchSigned(t, inPlace.self);
      expect(Buffer.compare(sealed.subarray(0, original.length), original)).toBe(0);
      const after = renderGray(writeFile(dir, 'in-place.pdf', sealed), 1, dir, 72 * scale);
      const others = words.filter((word) => !tags.some((tag) => overlaps(word, tag)));
      expect(others.map((word) => word.word)).toEqual(expect.arrayContaining(['For', 'Consultant', 'Client', 'Date:']));
      for (const word of others) {
        const band = inkBand(word);
        const was = pixelsIn(before, band, scale);
        const is = pixelsIn(after, band, scale);
        expect(Math.max(...was.map((value, index) => Math.abs(value - is[index]!))), word.word).toBeLessThan(48);
      }

      // Fields moved away from their tags: where each tag was is blank, in the sealed PDF and the party's page images.
      const moved = await upload(t, original);
      const made = await t.api('POST', `${moved.self}/annotations/from_tags`);
      for (const [index, field] of (made.body as any[]).entries())
        expect((await t.api('PUT', field.self, { body: { pos_x: 60, pos_y: 420 + index * 26 } })).status).toBe(200);
      expect((await t.api('POST', `${moved.self}/send`, { body: { silent: true } })).status).toBe(200);
      const link = (await t.api('GET', moved.parties[1]!)).body.contract_url as string;
      const base = (await signingClient(link).state()).body.contract.pageImages.base as string;
      const image = await fetch(`${new URL(link).origin}${base}/1-1170.webp`);
      expect(image.status).toBe(200);
      const shown = await grayOf(Buffer.from(await image.arrayBuffer()));
      // The PDF the party may download before signing hides them too, as an update of the original.
      const download = await fetch(`${link}/document.pdf`);
      expect(download.status).toBe(200);
      const downloaded = Buffer.from(await download.arrayBuffer());
      expect(Buffer.compare(downloaded.subarray(0, original.length), original)).toBe(0);
      const offered = renderGray(writeFile(dir, 'download.pdf', downloaded), 1, dir, 72 * scale);
      await signAll(t, moved.parties);
      const blank = renderGray(writeFile(dir, 'moved.pdf', await fetchSigned(t, moved.self)), 1, dir, 72 * scale);
      for (const tag of tags) {
        const box = { x: tag.x0, y: tag.baseline - 0.75 * tag.size, width: tag.x1 - tag.x0, height: 0.97 * tag.size };
        if (!tag.isWhole) box.width -= 4; // the punctuation after it stays
        expect(Math.min(...pixelsIn(before, box, scale)), tag.text).toBeLessThan(100);
        expect(Math.min(...pixelsIn(blank, box, scale)), tag.text).toBeGreaterThanOrEqual(250);
        expect(Math.min(...pixelsIn(offered, box, scale)), tag.text).toBeGreaterThanOrEqual(250);
        expect(Math.min(...pixelsIn(shown, box, shown.width / 595.28)), tag.text).toBeGreaterThanOrEqual(245);
      }
    },
    LOADS_PDFJS_MS * 2,
  );
});

const overlaps = (word: { page: number; x: number; y: number; width: number }, tag: PopplerTag) =>
  word.page === tag.page && Math.abs(word.y - tag.top) < 1 && word.x < tag.x1 && word.x + word.width > tag.x0;

function writeFile(dir: string, name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function fetchSigned(t: TestServer, self: string): Promise<Buffer> {
  const response = await fetch(`${t.url}${self}/signed_pdf`, {
    headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** A page image as the party's browser gets it, in gray. */
async function grayOf(webp: Buffer): Promise<GrayImage> {
  const picture = await loadImage(webp);
  const canvas = createCanvas(picture.width, picture.height);
  const context = canvas.getContext('2d');
  context.drawImage(picture, 0, 0);
  const rgba = context.getImageData(0, 0, picture.width, picture.height).data;
  const pixels = new Uint8Array(picture.width * picture.height);
  for (let index = 0; index < pixels.length; index += 1)
    pixels[index] = Math.round((rgba[index * 4]! + rgba[index * 4 + 1]! + rgba[index * 4 + 2]!) / 3);
  return { width: picture.width, height: picture.height, pixels };
}
