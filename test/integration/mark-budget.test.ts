import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdfs';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeContract, signingClient } from '../helpers/signing';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG of all-transparent pixels: 7999x3000 RGBA (24 megapixels) is about 93 KB. */
function transparentPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = zlib.deflateSync(Buffer.alloc(height * (1 + width * 4)), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('mark pictures are judged before they are decoded', { timeout: 120_000 }, () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function partyLink() {
    const contract = await makeContract(t, [{ name: 'Mallory', email: 'mallory@example.test' }]);
    expect((await t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const link = contract.parties[0]!.contract_url;
    const { csrfToken } = (await signingClient(link).state()).body as { csrfToken: string };
    return (picture: Buffer) =>
      fetch(`${link}/accept`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-signing-csrf': csrfToken },
        body: JSON.stringify({
          fields: {},
          signatureName: 'Mallory',
          mark: { kind: 'uploaded', signature: `data:image/png;base64,${picture.toString('base64')}` },
        }),
      }).then(async (response) => ({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        body: (await response.json()) as { detail?: string; validation_errors?: string[] },
      }));
  }

  it('refuses a 24-megapixel PNG of 93 KB by its header, while the office uploads alongside', async () => {
    const bomb = transparentPng(7999, 3000);
    expect(bomb.length).toBeLessThan(120_000);
    const accept = await partyLink();
    const pdf = await makePdf({ pages: 3 });
    const [upload, ...refusals] = await Promise.all([
      t.api('POST', '/api/contracts', { raw: { data: pdf, contentType: 'application/pdf' } }),
      ...Array.from({ length: 8 }, () => accept(bomb)),
    ]);
    expect(upload.status, upload.text).toBe(201);
    for (const refused of refusals) {
      expect(refused.status).toBe(400);
      expect(refused.body.validation_errors).toEqual([
        'mark.signature: The picture is 7999x3000 pixels; at most 4000 on a side and 4 megapixels are taken.',
      ]);
    }
  });

  it("throttles a link's pictures that need decoding: 429 with Retry-After", async () => {
    const accept = await partyLink();
    // A sane header over bytes that are no image: each one goes to the PDF sandbox to be decoded.
    const broken = transparentPng(100, 100);
    broken.fill(7, 41, broken.length - 12);
    const answers = [];
    for (let n = 0; n < 11; n += 1) answers.push(await accept(broken));
    expect(answers.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(400));
    expect(answers[10]).toMatchObject({ status: 429, body: { detail: expect.stringMatching(/Too many pictures/) } });
    expect(Number(answers[10]!.retryAfter)).toBeGreaterThan(0);
    // Another link is not held back by this one.
    const other = await partyLink();
    expect((await other(broken)).status).toBe(400);
  });
});
