import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSigningIdentity, type SigningIdentity } from '../../server/crypto/signing-identity';
import { createFileKeyStore } from '../../server/crypto/file-key-store';
import {
  buildSignedPdf,
  type SignedPdfField,
  type SignedPdfInput,
  type SignedPdfParty,
} from '../../server/pdf/build-signed-pdf';
import { makeContractPdf, type ContractPdfOptions } from '../helpers/make-contract-pdf';
import { changedPixels, pageCountOf, pdfsig, pdftotext, qpdfCheck, renderGray, screenshot } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';

const SCREENSHOTS = path.resolve('test-results/signed-pdf');
const VALID = 'Signature Validation: Signature is Valid.';

const now = Date.parse('2025-03-14T09:30:00Z');
const party = (name: string, contact: string, extra: Partial<SignedPdfParty> = {}): SignedPdfParty => ({
  name,
  contact,
  signType: 'DEFAULT',
  ipAddress: '192.0.2.17',
  userAgent:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  authentication: 'EMAIL_CODE',
  sentTime: now - 2 * 86_400_000,
  openedTime: now - 86_400_000,
  signedTime: now - 3_600_000,
  ...extra,
});
const PARTIES = [
  party('Åsa Öberg-Łukasiewicz', 'asa@example.se'),
  party('Zoë Dubois', '+46701234567', { signType: 'APPROVER', authentication: 'SMS_CODE' }),
];

function inputFor(
  original: Uint8Array,
  fields: SignedPdfField[],
  overrides: Partial<SignedPdfInput['audit']> = {},
  language?: 'en' | 'sv',
): SignedPdfInput {
  return {
    original,
    fields,
    language,
    audit: {
      documentName: 'Supply agreement 2025.pdf',
      documentSha256: createHash('sha256').update(original).digest('hex'),
      contractId: 4711,
      parties: PARTIES,
      completedTime: now,
      timeZone: 'Europe/Stockholm',
      ...overrides,
    },
  };
}

const signatureAt = (page: number, x = 60, y = 640): SignedPdfField => ({
  page,
  x,
  y,
  width: 200,
  height: 60,
  type: 'SIGNATURE',
  value: '',
  signerName: PARTIES[0]!.name,
});

const SIX_FIELDS = (page: number): SignedPdfField[] => [
  signatureAt(page),
  { page, x: 300, y: 640, width: 200, height: 60, type: 'SIGNATURE', value: '', signerName: PARTIES[1]!.name },
  {
    page,
    x: 60,
    y: 710,
    width: 200,
    height: 18,
    type: 'NAME',
    value: 'Åsa Öberg-Łukasiewicz',
    signerName: PARTIES[0]!.name,
  },
  { page, x: 300, y: 710, width: 110, height: 18, type: 'DATE', value: '', signerName: PARTIES[1]!.name },
  {
    page,
    x: 60,
    y: 740,
    width: 220,
    height: 36,
    type: 'TEXT',
    value: 'Delivery to the Göteborg warehouse, Mondays only, unless agreed otherwise in writing.',
    signerName: PARTIES[0]!.name,
  },
  { page, x: 300, y: 745, width: 16, height: 16, type: 'CHECKBOX', value: true, signerName: PARTIES[1]!.name },
];

let identity: SigningIdentity;
let dir: string;

beforeAll(async () => {
  dir = makeTempDir();
  identity = await loadSigningIdentity(createFileKeyStore(path.join(dir, 'keys')), { officeName: 'Öberg & Partners' });
});

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** Flips one bit of a byte inside the signed range (in the original's first stream data). */
function tamper(bytes: Uint8Array): Uint8Array {
  const copy = Buffer.from(bytes);
  const at = copy.indexOf('stream\n', 0, 'latin1') + 'stream\n'.length + 3;
  copy[at] = copy[at]! ^ 0x01;
  return copy;
}

type Kind = { name: string; options: ContractPdfOptions; fieldPage: number };
const KINDS: Kind[] = [
  { name: 'one page, object streams', options: { pages: 1 }, fieldPage: 1 },
  { name: 'one page, classic cross-reference table', options: { pages: 1, useObjectStreams: false }, fieldPage: 1 },
  { name: '50 pages, about 2 MiB', options: { pages: 50, targetBytes: 2 * 1024 * 1024 }, fieldPage: 50 },
  {
    name: 'pages of different sizes',
    options: {
      pages: 4,
      sizes: [
        [595.28, 841.89],
        [612, 792],
        [420.94, 595.28],
        [612, 1008],
      ],
      useObjectStreams: false,
    },
    fieldPage: 4,
  },
];

describe.each(KINDS)('a signed PDF of $name', ({ options, fieldPage, name }) => {
  let original: Uint8Array;
  let signed: Uint8Array;
  let file: string;

  beforeAll(async () => {
    original = await makeContractPdf(options);
    signed = await buildSignedPdf(inputFor(original, SIX_FIELDS(fieldPage)), identity);
    file = write(`${name.replace(/\W+/g, '-')}.pdf`, signed);
  });

  it('keeps the original bytes as its exact prefix', () => {
    expect(Buffer.from(signed.subarray(0, original.length)).equals(Buffer.from(original))).toBe(true);
    expect(signed.length).toBeGreaterThan(original.length);
  });

  it('passes qpdf --check', () => {
    const check = qpdfCheck(file);
    expect(check.stdout + check.stderr).toContain('No syntax or stream encoding errors found');
    expect(check.status).toBe(0);
  });

  it('carries one signature that pdfsig reports valid over the whole document', () => {
    const report = pdfsig(file);
    expect(report).toContain(VALID);
    expect(report).toContain('Total document signed');
    expect(report).toContain('Signature Type: ETSI.CAdES.detached');
    expect(report).toContain('SignDesk Öberg & Partners document seal');
  });

  it('is reported invalid by pdfsig once one byte of the signed range changes', () => {
    const report = pdfsig(write(`tampered-${path.basename(file)}`, tamper(signed)));
    expect(report).not.toContain(VALID);
    expect(report).toMatch(/Digest Mismatch|Signature is Invalid/);
  });

  it('ends with the audit trail: the document SHA-256 and every party', () => {
    // Right after the document's own pages; two pages here, each time written twice (below).
    const pages = pageCountOf(file);
    expect(pages).toBe(options.pages + 2);
    expect(pdftotext(file, options.pages)).not.toContain('Signature audit trail');
    expect(pdftotext(file, options.pages + 1)).toContain('Signature audit trail');
    const text = pdftotext(file, options.pages + 1, pages);
    expect(text).toContain('Audit trail · page 2 of 2');
    expect(text).toContain(createHash('sha256').update(original).digest('hex'));
    for (const { name: partyName, contact } of PARTIES) {
      expect(text).toContain(partyName);
      expect(text).toContain(contact);
    }
    expect(text).toContain('2025-03-14 10:30:00 +01:00');
    // …and beside it in the reader's own form.
    expect(text).toContain('14 March 2025 at 10:30:00');
    expect(text).toContain('One-time code by SMS');
    expect(text).toContain('unchanged first part of this file');
  });

  it('shows the filled values on the stamped page', () => {
    const text = pdftotext(file, fieldPage);
    expect(text).toContain('Signed by Åsa Öberg-Łukasiewicz');
    expect(text).toContain('Göteborg warehouse');
    expect(text).toContain('2025-03-14');
  });
});

describe('where marks are drawn', () => {
  it('draws each mark inside its annotation box (top-left origin), on rotated and cropped pages too', async () => {
    const original = await makeContractPdf({
      pages: 4,
      rotate: { 1: 90, 2: 180, 3: 270 },
      cropInset: 24,
      useObjectStreams: false,
    });
    const boxes = [
      { page: 1, x: 480, y: 60, width: 220, height: 64 },
      { page: 2, x: 300, y: 80, width: 200, height: 60 },
      { page: 3, x: 90, y: 400, width: 180, height: 56 },
      { page: 4, x: 320, y: 660, width: 200, height: 60 },
    ];
    const fields = boxes.map((box): SignedPdfField => ({
      ...box,
      type: 'SIGNATURE',
      value: '',
      signerName: 'Åsa Öberg',
    }));
    const before = write('rotated-original.pdf', original);
    const after = write('rotated-signed.pdf', await buildSignedPdf(inputFor(original, fields), identity));
    expect(pdfsig(after)).toContain(VALID);

    for (const box of boxes) {
      const change = changedPixels(renderGray(before, box.page, dir), renderGray(after, box.page, dir), box);
      expect(change.inside, `ink inside the box on page ${box.page}`).toBeGreaterThan(box.width * box.height * 0.05);
      expect(change.outside, `ink outside the box on page ${box.page}`).toBe(0);
    }
  });

  it('keeps screenshots of a stamped page and the audit trail', async () => {
    const original = await makeContractPdf({ pages: 2 });
    const file = write('screenshot.pdf', await buildSignedPdf(inputFor(original, SIX_FIELDS(2)), identity));
    screenshot(file, 2, path.join(SCREENSHOTS, 'stamped-page.png'));
    screenshot(file, 3, path.join(SCREENSHOTS, 'audit-trail.png'));
    expect(fs.statSync(path.join(SCREENSHOTS, 'stamped-page.png')).size).toBeGreaterThan(10_000);
    expect(fs.statSync(path.join(SCREENSHOTS, 'audit-trail.png')).size).toBeGreaterThan(10_000);
  });
});

describe('inputs of other kinds', () => {
  it('seals a linearized PDF (qpdf) incrementally', async () => {
    const plain = write('to-linearize.pdf', await makeContractPdf({ pages: 3 }));
    const linearized = path.join(dir, 'linearized.pdf');
    execFileSync('qpdf', ['--linearize', plain, linearized]);
    const original = fs.readFileSync(linearized);
    const signed = await buildSignedPdf(inputFor(original, [signatureAt(2)]), identity);
    const file = write('linearized-signed.pdf', signed);
    expect(Buffer.from(signed.subarray(0, original.length)).equals(original)).toBe(true);
    expect(qpdfCheck(file).status).toBe(0);
    expect(pdfsig(file)).toContain(VALID);
  });

  it('seals an already sealed PDF again, leaving the first signature intact', async () => {
    const original = await makeContractPdf({ pages: 1 });
    const first = await buildSignedPdf(inputFor(original, [signatureAt(1)]), identity);
    const second = await buildSignedPdf(inputFor(first, [signatureAt(2, 60, 500)], { contractId: 4712 }), identity);
    const file = write('resealed.pdf', second);
    expect(Buffer.from(second.subarray(0, first.length)).equals(Buffer.from(first))).toBe(true);
    expect(qpdfCheck(file).status).toBe(0);
    const report = pdfsig(file);
    expect(report.split(VALID)).toHaveLength(3);
    // The first seal now covers only part of the file: pdfsig no longer calls it the total document.
    const [firstReport, secondReport] = report.split('Signature #2:');
    expect(firstReport).not.toContain('Total document signed');
    expect(secondReport).toContain('Total document signed');
  });

  it('rewrites a PDF whose startxref is damaged, then seals it', async () => {
    const original = Buffer.from(await makeContractPdf({ pages: 2, useObjectStreams: false }));
    const at = original.lastIndexOf('startxref');
    const damaged = Buffer.concat([original.subarray(0, at), Buffer.from('startxref\n12\n%%EOF\n')]);
    const file = write('damaged-signed.pdf', await buildSignedPdf(inputFor(damaged, [signatureAt(1)]), identity));
    expect(qpdfCheck(file).status).toBe(0);
    expect(pdfsig(file)).toContain(VALID);
    expect(pageCountOf(file)).toBe(4);
    const auditText = pdftotext(file, 3, 4);
    expect(auditText).not.toContain('unchanged first part');
    expect(auditText).toContain('any later change invalidates the seal');
  });

  it("refuses an encrypted PDF and a SHA-256 that is not the original's", async () => {
    const plain = write('to-encrypt.pdf', await makeContractPdf({ pages: 1 }));
    const encrypted = path.join(dir, 'encrypted.pdf');
    execFileSync('qpdf', ['--encrypt', 'user', 'owner', '256', '--', plain, encrypted]);
    const bytes = fs.readFileSync(encrypted);
    await expect(buildSignedPdf(inputFor(bytes, []), identity)).rejects.toThrow(/encrypted/);
    const original = fs.readFileSync(plain);
    await expect(buildSignedPdf(inputFor(original, [], { documentSha256: 'ab'.repeat(32) }), identity)).rejects.toThrow(
      /SHA-256/,
    );
  });
});

describe('the audit trail', () => {
  it('flows many parties with long user agents onto further pages, in Swedish when asked', async () => {
    const original = await makeContractPdf({ pages: 1 });
    const parties = Array.from({ length: 12 }, (_, index) =>
      party(`Part ${index + 1} Ångström`, `part${index + 1}@example.se`, {
        userAgent: `Mozilla/5.0 ${'(very long user agent segment) '.repeat(12)}end-${index + 1}`,
        openedTime: null,
      }),
    );
    const file = write('many-parties.pdf', await buildSignedPdf(inputFor(original, [], { parties }, 'sv'), identity));
    const pages = pageCountOf(file);
    expect(pages).toBeGreaterThanOrEqual(3);
    const text = pdftotext(file, 2, pages);
    expect(text).toContain('Signeringslogg');
    expect(text).toContain(`sida ${pages - 1} av ${pages - 1}`);
    for (const { name, contact } of parties) {
      expect(text).toContain(name);
      expect(text).toContain(contact);
    }
    expect(text).toContain('end-12');
    expect(pdfsig(file)).toContain(VALID);
    screenshot(file, 2, path.join(SCREENSHOTS, 'audit-trail-many-parties.png'));
  });

  it('writes names its fonts cannot draw with a visible stand-in instead of failing', async () => {
    const original = await makeContractPdf({ pages: 1 });
    const name = '李小龍 Åsa';
    const fields: SignedPdfField[] = [
      { ...signatureAt(1), signerName: name },
      { page: 1, x: 300, y: 640, width: 200, height: 20, type: 'NAME', value: name, signerName: name },
    ];
    const file = write(
      'cjk.pdf',
      await buildSignedPdf(inputFor(original, fields, { parties: [party(name, 'li@example.com')] }), identity),
    );
    expect(pdfsig(file)).toContain(VALID);
    expect(pdftotext(file, 2)).toContain('??? Åsa');
  });
});

describe('the embedded fonts', () => {
  it('are subsets whose every glyph decodes (the loca alignment @pdf-lib/fontkit needs)', async () => {
    const original = await makeContractPdf({ pages: 1 });
    const signed = await buildSignedPdf(inputFor(original, SIX_FIELDS(1)), identity);
    const doc = await PDFDocument.load(signed);
    const fonts: Array<{ name: string; glyphs: number }> = [];
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      if (!(object instanceof PDFDict) || object.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
      const file = object.lookup(PDFName.of('FontFile2'));
      if (!(file instanceof PDFRawStream)) continue;
      const font = fontkit.create(decodePDFRawStream(file).decode());
      // A glyph cut off by a misaligned loca fails to decode (RangeError) or draws past the font's box.
      for (let id = 0; id < font.numGlyphs; id += 1) {
        const box = font.getGlyph(id).path.bbox;
        if (Number.isFinite(box.width)) expect(box.maxY - box.minY).toBeLessThan(font.unitsPerEm * 3);
      }
      fonts.push({ name: object.get(PDFName.of('FontName'))!.toString(), glyphs: font.numGlyphs });
    }
    expect(fonts.map((font) => font.name).join(' ')).toMatch(
      /NotoSans-Regular.*NotoSans-Bold.*DancingScript|DancingScript.*NotoSans/,
    );
    for (const font of fonts) expect(font.glyphs).toBeGreaterThan(10);
    expect(fonts.every((font) => font.glyphs < 200)).toBe(true);
  });
});

describe('drawn signature marks', () => {
  it('draws a PNG mark inside its box, and the name in script when the PNG is unreadable', async () => {
    const original = await makeContractPdf({ pages: 1, useObjectStreams: false });
    const png = await pngOfStroke();
    const box = { page: 1, x: 320, y: 600, width: 200, height: 70 };
    const fields: SignedPdfField[] = [
      { ...box, type: 'SIGNATURE', value: `data:image/png;base64,${png}`, signerName: 'Åsa Öberg' },
      {
        page: 1,
        x: 60,
        y: 600,
        width: 200,
        height: 70,
        type: 'SIGNATURE',
        value: 'data:image/png;base64,bm90IGEgcG5n',
        signerName: 'Broken Png',
      },
    ];
    const before = write('drawn-original.pdf', original);
    const after = write('drawn-signed.pdf', await buildSignedPdf(inputFor(original, fields), identity));
    expect(pdfsig(after)).toContain(VALID);
    const change = changedPixels(renderGray(before, 1, dir), renderGray(after, 1, dir), {
      x: 0,
      y: 590,
      width: 600,
      height: 90,
    });
    expect(change.outside).toBe(0);
    const inside = changedPixels(renderGray(before, 1, dir), renderGray(after, 1, dir), box);
    expect(inside.inside).toBeGreaterThan(500);
    expect(pdftotext(after, 1)).toContain('Signed by Broken Png');
  });
});

/** A small PNG of a dark stroke (a page drawn with pdf-lib, rendered by pdftoppm), like a mark drawn on the signing page. */
async function pngOfStroke(): Promise<string> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([120, 40]);
  page.drawLine({ start: { x: 5, y: 5 }, end: { x: 115, y: 35 }, thickness: 4 });
  const file = write('stroke.pdf', await doc.save());
  execFileSync('pdftoppm', ['-r', '72', '-png', '-singlefile', file, path.join(dir, 'stroke')]);
  return fs.readFileSync(path.join(dir, 'stroke.png')).toString('base64');
}
