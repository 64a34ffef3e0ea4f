import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

/** A PNG of one colour, as an office's logo file might be. */
function pngOf(width: number, height: number, rgba = [11, 110, 79, 255]): Buffer {
  const png = new PNG({ width, height });
  for (let at = 0; at < png.data.length; at += 4) png.data.set(rgba, at);
  return PNG.sync.write(png);
}

const SVG = (inner: string, attributes = '') =>
  `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80"${attributes}>${inner}</svg>`;
const PLAIN_SVG = SVG('<rect width="200" height="80" fill="#0b6e4f"/><circle cx="40" cy="40" r="30" fill="#fff"/>');

/** The PNG with a text chunk after its header: what an image editor leaves in a file. */
function withTextChunk(png: Buffer, text: string): Buffer {
  const body = Buffer.concat([Buffer.from('tEXt'), Buffer.from(text, 'latin1')]);
  const chunk = Buffer.alloc(body.length + 8);
  chunk.writeUInt32BE(body.length - 4, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), body.length + 4);
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("the office's brand through the API", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  const putLogo = (data: Uint8Array | string, contentType: string) =>
    t.api('PUT', '/api/settings/brand/logo', { raw: { data, contentType } });

  it('takes an accent colour that white text on it passes WCAG AA, and refuses one that fails, changing nothing', async () => {
    const before = await t.api('GET', '/api/settings/brand');
    expect(before.body).toMatchObject({ accent_color: null, effective_accent_color: '#1f4fd1', logo: null });
    const set = await t.api('PUT', '/api/settings/brand', { body: { accent_color: '#0B6E4F' } });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ accent_color: '#0b6e4f', effective_accent_color: '#0b6e4f' });

    // Yellow under white text: 1.6:1.
    const pale = await t.api('PUT', '/api/settings/brand', {
      body: { accent_color: '#ffcc00', office_name: 'Renamed' },
    });
    expectProblem(pale, 400, 'validation-failed');
    expect(pale.body.validation_errors.join('\n')).toMatch(
      /accent_color: white text on it has a contrast of 1\.\d\d:1; WCAG AA needs at least 4\.5:1/,
    );
    const notColour = await t.api('PUT', '/api/settings/brand', { body: { accent_color: 'red' } });
    expectProblem(notColour, 400, 'validation-failed');
    const after = await t.api('GET', '/api/settings/brand');
    expect(after.body).toMatchObject({ accent_color: '#0b6e4f', office_name: before.body.office_name });
  });

  it('makes a PNG logo afresh (never serving the upload) and serves it to parties on the party surface', async () => {
    const upload = withTextChunk(pngOf(300, 120), 'Comment\0made on the office PC of A. Person');
    expect(PNG.sync.read(upload).width).toBe(300);
    const set = await putLogo(upload, 'image/png');
    expect(set.status, set.text).toBe(200);
    expect(set.body.logo).toMatchObject({ width: 300, height: 120, uploaded_type: 'image/png' });
    const served = await fetch(set.body.logo.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('cache-control')).toMatch(/immutable/);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(PNG.sync.read(bytes).width).toBe(300);
    expect(bytes.toString('latin1')).not.toContain('A. Person');
    expect(bytes.equals(upload)).toBe(false);
    const admin = await t.api('GET', '/api/settings/brand/logo');
    expect(admin.status).toBe(200);
  });

  it('draws an SVG into a PNG: what parties get is never SVG', async () => {
    const set = await putLogo(PLAIN_SVG, 'image/svg+xml');
    expect(set.status, set.text).toBe(200);
    expect(set.body.logo).toMatchObject({ uploaded_type: 'image/svg+xml', width: 800, height: 320 });
    const served = await fetch(set.body.logo.url);
    expect(served.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(bytes.toString('latin1')).not.toMatch(/<svg|<circle/);
    // The drawing is the SVG's: its green background at the corner, its white circle at (40, 40)·4.
    const pixels = PNG.sync.read(bytes);
    const at = (x: number, y: number) => [
      ...pixels.data.subarray((y * pixels.width + x) * 4, (y * pixels.width + x) * 4 + 3),
    ];
    expect(at(2, 2)).toEqual([11, 110, 79]);
    expect(at(160, 160)).toEqual([255, 255, 255]);
  });

  it('refuses an SVG that carries a script, an event handler, a reference outside itself or entities, keeping the logo it had', async () => {
    const before = (await t.api('GET', '/api/settings/brand')).body.logo;
    const hostile = [
      [SVG('<script>alert(document.cookie)</script><rect width="10" height="10"/>'), /a script/],
      [SVG('<rect width="10" height="10"/>', ' onload="alert(1)"'), /event handler/],
      [SVG('<image href="https://evil.example/track.png" width="10" height="10"/>'), /outside the file/],
      [
        SVG(
          '<image xlink:href="file:///etc/passwd" width="10" height="10"/>',
          ' xmlns:xlink="http://www.w3.org/1999/xlink"',
        ),
        /outside the file/,
      ],
      [SVG('<foreignObject width="10" height="10"><div>x</div></foreignObject>'), /foreign content/],
      [SVG('<text>&a;</text>').replace('<svg', '<!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]><svg'), /entity|DOCTYPE/],
      [SVG('<a href="javascript:alert(1)"><rect width="10" height="10"/></a>'), /javascript|outside/],
    ] as const;
    for (const [svg, why] of hostile) {
      const refused = await putLogo(svg, 'image/svg+xml');
      expectProblem(refused, 400, 'validation-failed');
      expect(refused.body.validation_errors.join(' '), svg).toMatch(why);
    }
    expect((await t.api('GET', '/api/settings/brand')).body.logo).toEqual(before);
  });

  it('judges a logo by its header before decoding, by its size before reading, and by its type', async () => {
    const huge = pngOf(1, 1);
    huge.writeUInt32BE(20_000, 16);
    huge.writeUInt32BE(20_000, 20);
    const tooMany = await putLogo(huge, 'image/png');
    expectProblem(tooMany, 400, 'validation-failed');
    expect(tooMany.body.validation_errors[0]).toMatch(/20000x20000 pixels; at most 4096/);
    expectProblem(await putLogo(Buffer.alloc(600 * 1024, 1), 'image/png'), 413, 'payload-too-large');
    expectProblem(await putLogo(Buffer.from('GIF89a'), 'image/gif'), 415, 'unsupported-media-type');
    const notImage = await putLogo(Buffer.from('%PDF-1.7 hello'), 'image/png');
    expectProblem(notImage, 400, 'validation-failed');
    expect(notImage.body.validation_errors[0]).toMatch(/must be a PNG or an SVG/);
  });

  it('is for administrators only', async () => {
    const clerk = await makeUser(t, 'clerk');
    expectProblem(await clerk.api('GET', '/api/settings/brand'), 403, 'forbidden');
    expectProblem(
      await clerk.api('PUT', '/api/settings/brand', { body: { accent_color: '#0b6e4f' } }),
      403,
      'forbidden',
    );
    const anonymous = await fetch(`${t.url}/api/settings/brand`, { headers: { 'accept-api-version': '1' } });
    expect(anonymous.status).toBe(401);
  });

  it('removes the logo: the party surface no longer serves it', async () => {
    const { url } = (await t.api('GET', '/api/settings/brand')).body.logo;
    const removed = await t.api('DELETE', '/api/settings/brand/logo');
    expect(removed.status).toBe(200);
    expect(removed.body.logo).toBeNull();
    expect((await fetch(url)).status).toBe(404);
    expectProblem(await t.api('GET', '/api/settings/brand/logo'), 404, 'not-found');
  });
});
