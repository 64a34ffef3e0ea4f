import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractState, newDraft } from '../helpers/contracts';
import { expectProblem } from '../helpers/problems';
import { startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

const MIB2 = 2_097_152;

describe('contract attachments', () => {
  let t: TestServer;
  let contract: { self: string; id: number };
  const upload = (
    data: string | Uint8Array,
    headers: Record<string, string>,
    contentType?: string,
    target = contract.self,
  ) => t.api('POST', `${target}/attachments`, { raw: { data, ...(contentType ? { contentType } : {}) }, headers });
  const fetchFile = (uri: string) =>
    fetch(uri, { headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' } });

  beforeAll(async () => {
    t = await startTestServer();
    contract = await newDraft(t);
  });
  afterAll(() => t.close());

  it('stores a file under its Content-Disposition name and serves it at preview_uri', async () => {
    const response = await upload(
      'Villkor för uthyrning.\n',
      { 'content-disposition': 'attachment; filename="villkor.txt"' },
      'text/plain; charset=utf-8',
    );
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ name: 'villkor.txt', created_by: t.adminPath });
    expect(response.body.self).toMatch(new RegExp(`^${contract.self}/attachments/\\d+$`));
    expect(response.body.preview_uri).toBe(`${t.url}${response.body.self}/preview`);
    expect((await t.api('GET', response.body.self)).body).toEqual(response.body);

    const file = await fetchFile(response.body.preview_uri);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe('inline; filename=villkor.txt');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await file.text()).toBe('Villkor för uthyrning.\n');
    expect((await fetch(response.body.preview_uri)).status).toBe(401);
  });

  it('reads RFC 6266 filename* over filename and keeps a name with "/" whole, saved without folders', async () => {
    const utf8 = await upload(
      new Uint8Array([1, 2, 3]),
      {
        'content-disposition': `attachment; filename="fallback.bin"; filename*=UTF-8''Bilaga%20%C3%A5%C3%A4%C3%B6%20%E2%82%AC.bin`,
      },
      'application/octet-stream',
    );
    expect(utf8.body.name).toBe('Bilaga åäö €.bin');
    const file = await fetchFile(utf8.body.preview_uri);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="Bilaga ??? ?.bin"; filename*=UTF-8''Bilaga%20%C3%A5%C3%A4%C3%B6%20%E2%82%AC.bin`,
    );
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from([1, 2, 3]));
    const sneaky = await upload(
      'x',
      { 'content-disposition': 'attachment; filename="../../etc\\\\passwd"' },
      'text/plain',
    );
    expect(sneaky.body.name).toBe('../../etc\\passwd');
    expect((await fetchFile(sneaky.body.preview_uri)).headers.get('content-disposition')).toBe(
      'inline; filename=.._.._etc_passwd',
    );
    const markup = await upload(
      'x',
      { 'content-disposition': `attachment; filename="\\"><script>alert(11)</script>.txt"` },
      'text/plain',
    );
    expect(markup.body.name).toBe('"><script>alert(11)</script>.txt');
    expect((await fetchFile(markup.body.preview_uri)).headers.get('content-disposition')).toBe(
      'inline; filename="\\"><script>alert(11)<_script>.txt"',
    );
  });

  it('serves active content as a sandboxed download, never inline', async () => {
    const html = await upload(
      '<script>alert(1)</script>',
      { 'content-disposition': 'inline; filename="page.html"' },
      'text/html',
    );
    const file = await fetchFile(html.body.preview_uri);
    expect(file.headers.get('content-type')).toBe('text/html');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename=page.html');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('takes exactly 2 MiB and refuses one byte more with 413, storing nothing', async () => {
    const exact = new Uint8Array(MIB2).fill(7);
    const accepted = await upload(
      exact,
      { 'content-disposition': 'attachment; filename="big.bin"' },
      'application/octet-stream',
    );
    expect(accepted.status).toBe(201);
    expect((await fetchFile(accepted.body.preview_uri).then((r) => r.arrayBuffer())).byteLength).toBe(MIB2);
    const before = await contractState(t, contract.id);
    const over = await upload(
      new Uint8Array(MIB2 + 1).fill(8),
      { 'content-disposition': 'attachment; filename="bigger.bin"' },
      'application/octet-stream',
    );
    expectProblem(over, 413, 'payload-too-large');
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('refuses a missing or nameless Content-Disposition, a bad type and an empty file, changing nothing', async () => {
    const before = await contractState(t, contract.id);
    const missing = await upload('x', {}, 'text/plain');
    expectProblem(missing, 400, 'validation-failed');
    expect(missing.body.validation_errors).toEqual([
      'Content-Disposition: is required, e.g. attachment; filename="terms.pdf" (RFC 6266)',
    ]);
    expect((await upload('x', { 'content-disposition': 'attachment' }, 'text/plain')).body.validation_errors).toEqual([
      'Content-Disposition: must carry a filename (filename= or filename*=)',
    ]);
    expect(
      (await upload('x', { 'content-disposition': 'attachment filename="a.txt"' }, 'text/plain')).body
        .validation_errors,
    ).toEqual(['Content-Disposition: is not a valid disposition (RFC 6266)']);
    expect(
      (await upload('x', { 'content-disposition': `attachment; filename="${'n'.repeat(256)}"` }, 'text/plain')).body
        .validation_errors,
    ).toEqual(['Content-Disposition: the filename must be at most 255 characters']);
    expect(
      (await upload('', { 'content-disposition': 'attachment; filename="empty.txt"' }, 'text/plain')).body
        .validation_errors,
    ).toEqual(['body: the attachment is empty']);
    // A string body would get text/plain from fetch; bytes go without any Content-Type.
    expectProblem(
      await upload(new Uint8Array([120]), { 'content-disposition': 'attachment; filename="a.txt"' }),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await upload('{"a":1}', { 'content-disposition': 'attachment; filename="a.json"' }, 'application/json'),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await upload('x', { 'content-disposition': 'attachment; filename="a.txt"' }, 'not a type'),
      415,
      'unsupported-media-type',
    );
    expectProblem(
      await upload(
        'x',
        { 'content-disposition': 'attachment; filename="a.txt"' },
        'text/plain',
        '/api/contracts/999999',
      ),
      404,
      'not-found',
    );
    expect(await contractState(t, contract.id)).toEqual(before);
  });

  it('removes an attachment and its stored bytes', async () => {
    const files = async () =>
      ((await rawSql(t.server.ctx.db).get('SELECT count(*) AS n FROM stored_files')) as { n: number }).n;
    const before = await files();
    const made = await upload(
      'unique bytes for removal',
      { 'content-disposition': 'attachment; filename="gone.txt"' },
      'text/plain',
    );
    expect(await files()).toBe(before + 1);
    expect((await t.api('DELETE', made.body.self)).status).toBe(204);
    expect(await files()).toBe(before);
    expectProblem(await t.api('GET', made.body.self), 404, 'not-found');
    expectProblem(await t.api('GET', `${made.body.self}/preview`), 404, 'not-found');
    expectProblem(await t.api('PUT', made.body.self, { body: { name: 'x' } }), 405, 'method-not-allowed');
  });

  it('holds at most 20 attachments', async () => {
    const full = await newDraft(t);
    for (let index = 0; index < 20; index += 1) {
      expect(
        (
          await upload(
            `file ${index}`,
            { 'content-disposition': `attachment; filename="f${index}.txt"` },
            'text/plain',
            full.self,
          )
        ).status,
      ).toBe(201);
    }
    const listed = await t.api('GET', `${full.self}/attachments`);
    expect(listed.headers.get('pagination-items-total')).toBe('20');
    expect(listed.body[0].name).toBe('f19.txt');
    const before = await contractState(t, full.id);
    const over = await upload(
      'one more',
      { 'content-disposition': 'attachment; filename="f20.txt"' },
      'text/plain',
      full.self,
    );
    expectProblem(over, 409, 'limit-reached');
    expect(await contractState(t, full.id)).toEqual(before);
  });
});
