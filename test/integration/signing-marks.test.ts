import fs from 'node:fs';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCountOf, pdftotext, renderGray, run } from '../helpers/pdf-tools';
import { makeTempDir } from '../helpers/server';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { signaturePhoto } from '../helpers/signature-photo';

/** A picture of ink: a dark diagonal stroke on white (or on transparency), as PNG or JPEG. */
function inkPicture(
  format: 'png' | 'jpeg',
  options: { width?: number; height?: number; transparent?: boolean } = {},
): string {
  const width = options.width ?? 600;
  const height = options.height ?? 200;
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  if (!options.transparent) {
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
  }
  context.strokeStyle = '#102060';
  context.lineWidth = 12;
  context.beginPath();
  context.moveTo(20, height - 20);
  context.lineTo(width - 20, 20);
  context.stroke();
  const bytes = format === 'png' ? canvas.toBuffer('image/png') : canvas.toBuffer('image/jpeg', 90);
  return `data:image/${format};base64,${bytes.toString('base64')}`;
}

const SIGNATURE_BOX = { type: 'SIGNATURE', pdf_page: 1, pos_x: 60, pos_y: 600, width: 240, height: 80 };
const INITIALS_BOX = { type: 'INITIALS', pdf_page: 1, pos_x: 400, pos_y: 700, width: 60, height: 30 };
const DATE_BOX = { type: 'DATE', pdf_page: 1, pos_x: 60, pos_y: 720, width: 140, height: 20 };

describe('marks: what a party signs with, checked and stamped', () => {
  let env: SigningEnv;
  let dir: string;
  beforeAll(async () => {
    // Far east of UTC: the office's date is tomorrow's UTC date for half of every day.
    env = await startSigningEnv({ timeZone: 'Pacific/Kiritimati' });
    dir = makeTempDir('signdesk-marks-');
  });
  afterAll(async () => {
    await env.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function signedFile(contractSelf: string, name: string): Promise<string> {
    const signed = await fetch(new URL(`${contractSelf}/signed_pdf`, env.t.url), {
      headers: { authorization: `token ${env.t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(signed.status).toBe(200);
    const file = path.join(dir, `${name}.pdf`);
    fs.writeFileSync(file, Buffer.from(await signed.arrayBuffer()));
    return file;
  }

  it('stamps a typed mark in its face, INITIALS as the initials ("CC" for "C. Carter"), and DATE as the office date the page showed', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Chris Carter', email: 'chris@example.test', fields: [SIGNATURE_BOX, INITIALS_BOX, DATE_BOX] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const chris = signingClient(contract.parties[0]!.contract_url);
    const state = (await chris.state()).body;
    const officeToday = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Pacific/Kiritimati',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    expect(state.today).toBe(officeToday);
    const accepted = await fetch(`${contract.parties[0]!.contract_url}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-csrf': state.csrfToken },
      body: JSON.stringify({ fields: {}, signatureName: 'C. Carter', mark: { kind: 'typed', face: 'great-vibes' } }),
    });
    expect(accepted.status).toBe(200);
    const file = await signedFile(contract.self, 'typed');
    const firstPage = pdftotext(file, 1);
    expect(firstPage).toContain('CC');
    expect(firstPage).toContain(state.today);
    expect(firstPage).not.toContain('Chris Carter');
    // The API gives the INITIALS box the value the PDF stamps, and the signature box the name signed with.
    const values = Object.fromEntries(
      ((await env.t.api('GET', `${contract.self}/annotations`)).body as Array<{ type: string; value: unknown }>).map(
        (annotation) => [annotation.type, annotation.value],
      ),
    );
    expect(values).toMatchObject({ INITIALS: 'CC', SIGNATURE: 'C. Carter' });
    expect(run('pdffonts', [file]).stdout).toMatch(/GreatVibes/);
    // The audit trail (its pages after the document's) names the typed signing name beside the party's own.
    const audit = pdftotext(file, 2, pageCountOf(file));
    expect(audit).toContain('Signed as');
    expect(audit).toContain('C. Carter');
    expect(run('pdfsig', [file]).stdout).toContain('Signature is Valid');
  });

  it('stamps an uploaded photo of a signature with its paper taken out, and drawn initials', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Dora Dahl', email: 'dora@example.test', fields: [SIGNATURE_BOX, INITIALS_BOX] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const dora = signingClient(contract.parties[0]!.contract_url);
    const { csrfToken } = (await dora.state()).body;
    const mark = {
      kind: 'uploaded',
      signature: inkPicture('jpeg'),
      initials: inkPicture('png', { width: 200, height: 120, transparent: true }),
    };
    const accepted = await fetch(`${contract.parties[0]!.contract_url}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-csrf': csrfToken },
      body: JSON.stringify({ fields: {}, signatureName: 'Dora Dahl', mark }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const file = await signedFile(contract.self, 'uploaded');
    const page = renderGray(file, 1, dir);
    const at = (x: number, y: number) => page.pixels[Math.round(y) * page.width + Math.round(x)]!;
    const inkNear = (x: number, y: number) =>
      Math.min(...[-2, -1, 0, 1, 2].flatMap((dx) => [-2, -1, 0, 1, 2].map((dy) => at(x + dx, y + dy)))) < 140;
    // The stroke runs corner to corner of the picture, fitted into the box above its caption
    // (4 pt padding, 14.5 pt of caption): through the middle of that area, not near its corners.
    const box = SIGNATURE_BOX;
    const area = { left: box.pos_x + 4, top: box.pos_y + 4, width: box.width - 8, height: box.height - 4 - 14.5 };
    const point = (fx: number, fy: number) => [area.left + area.width * fx, area.top + area.height * fy] as const;
    expect(inkNear(...point(0.5, 0.5))).toBe(true);
    expect(inkNear(...point(0.3, 0.1))).toBe(false);
    expect(inkNear(...point(0.7, 0.9))).toBe(false);
    // The photo's paper is gone: the stamped picture carries a transparency mask.
    expect(run('pdfimages', ['-list', '-f', '1', '-l', '1', file]).stdout).toMatch(/\bsmask\b/);
    // The drawn initials are a picture: no typed "DD" in the text.
    expect(pdftotext(file, 1)).not.toContain('DD');
    expect(inkNear(INITIALS_BOX.pos_x + INITIALS_BOX.width / 2, INITIALS_BOX.pos_y + INITIALS_BOX.height / 2)).toBe(
      true,
    );
  });

  it('stamps a phone photo of ink on grey, unevenly lit paper as the ink alone, not a grey patch', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Gun Grå', email: 'gun@example.test', fields: [SIGNATURE_BOX] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const gun = signingClient(contract.parties[0]!.contract_url);
    const { csrfToken } = (await gun.state()).body;
    const photo = signaturePhoto();
    const accepted = await fetch(`${contract.parties[0]!.contract_url}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signing-csrf': csrfToken },
      body: JSON.stringify({
        fields: {},
        signatureName: 'Gun Grå',
        mark: { kind: 'uploaded', signature: `data:image/jpeg;base64,${photo.toString('base64')}` },
      }),
    });
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const page = renderGray(await signedFile(contract.self, 'photo'), 1, dir);
    const box = SIGNATURE_BOX;
    // The picture's area of the box (above its caption): the ink is there, dark; everything else
    // is the page's white. A grey patch (the paper kept) would darken most of the area.
    let darkest = 255;
    let grey = 0;
    let all = 0;
    for (let y = box.pos_y + 4; y < box.pos_y + box.height - 18; y += 1)
      for (let x = box.pos_x + 4; x < box.pos_x + box.width - 4; x += 1) {
        const value = page.pixels[y * page.width + x]!;
        darkest = Math.min(darkest, value);
        if (value < 235) grey += 1;
        all += 1;
      }
    expect(darkest).toBeLessThan(110);
    expect(grey / all).toBeLessThan(0.15);
  });

  it('refuses marks that are not pictures it can use, changing nothing', async () => {
    const contract = await makeContract(env.t, [
      { name: 'Erik Ek', email: 'erik@example.test', fields: [SIGNATURE_BOX] },
      { name: 'Fia Approver', email: 'fia@example.test', sign_type: 'APPROVER', fields: [] },
    ]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const erik = signingClient(contract.parties[0]!.contract_url);
    const { csrfToken } = (await erik.state()).body;
    const accept = (mark: unknown, csrf = csrfToken, link = contract.parties[0]!.contract_url) =>
      fetch(`${link}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signing-csrf': csrf },
        body: JSON.stringify({ fields: {}, signatureName: 'Erik Ek', mark }),
      }).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { validation_errors?: string[] },
      }));

    const svg = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64')}`;
    const liar = Buffer.alloc(64);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(liar);
    liar.write('IHDR', 12, 'latin1');
    liar.writeUInt32BE(100_000, 16);
    liar.writeUInt32BE(100_000, 20);
    // A sane header over bytes that are no image at all.
    const broken = Buffer.from(liar);
    broken.writeUInt32BE(100, 16);
    broken.writeUInt32BE(100, 20);
    broken.fill(7, 24);
    const blank = createCanvas(300, 100);
    blank.getContext('2d').fillStyle = '#ffffff';
    blank.getContext('2d').fillRect(0, 0, 300, 100);
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'drawn', signature: svg }, /mark.signature: must be a PNG or JPEG/],
      [
        { kind: 'drawn', signature: `data:image/png;base64,${liar.toString('base64')}` },
        /mark.signature: .*100000x100000/,
      ],
      [
        { kind: 'drawn', signature: `data:image/png;base64,${broken.toString('base64')}` },
        /mark.signature: .*could not be read/,
      ],
      [
        { kind: 'uploaded', signature: `data:image/png;base64,${blank.toBuffer('image/png').toString('base64')}` },
        /mark.signature: .*empty/,
      ],
      [
        { kind: 'drawn', signature: `data:image/png;base64,${Buffer.from('GIF89a').toString('base64')}` },
        /mark.signature: .*PNG or a JPEG/,
      ],
      [{ kind: 'typed', face: 'comic-sans' }, /mark/],
    ];
    for (const [mark, message] of cases) {
      const refused = await accept(mark);
      expect(refused.status, JSON.stringify(mark).slice(0, 80)).toBe(400);
      expect(refused.body.validation_errors?.join(' ')).toMatch(message);
    }
    const tooLarge = await accept({
      kind: 'drawn',
      signature: `data:image/png;base64,${Buffer.alloc(1024 * 1024 + 10).toString('base64')}`,
    });
    expect(tooLarge.status).toBe(400);
    expect((await erik.state()).body.stage).toBe('ready');

    const fia = signingClient(contract.parties[1]!.contract_url);
    const fiaState = (await fia.state()).body;
    const approverMark = await accept(
      { kind: 'typed', face: 'caveat' },
      fiaState.csrfToken,
      contract.parties[1]!.contract_url,
    );
    expect(approverMark.status).toBe(400);
    expect(approverMark.body.validation_errors).toEqual([
      'mark: only a party that signs makes a mark; an approver approves without one',
    ]);
    expect((await accept({ kind: 'drawn', signature: inkPicture('png', { transparent: true }) })).status).toBe(200);
  });
});
