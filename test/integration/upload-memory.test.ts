import { createHash } from 'node:crypto';
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf, makePdfOfSize } from '../helpers/pdfs';
import { servedPdf, startTestServer, type TestServer } from '../helpers/server';
import { rawSql } from '../../server/db/raw-sql';

const PDF = 'application/pdf';
const WORD_PDF = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/word-processor/contract-sans.pdf'));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Uploaded PDFs are read into reusable shared memory that the PDF worker reads in place
 * (server/core/shared-buffers.ts): many at once, of every size, cut off or sent in chunks, each
 * contract keeps exactly its own bytes.
 */
describe('uploads through the upload memory', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  /** A raw HTTP request that declares `declared` bytes, sends `sent`, and (if short) gives up. */
  const sendShort = (sent: Uint8Array, declared: number) =>
    new Promise<void>((resolve) => {
      const request = http.request(`${t.url}/api/contracts`, {
        method: 'POST',
        headers: {
          authorization: `token ${t.adminKey}`,
          'accept-api-version': '1',
          'content-type': PDF,
          'content-length': String(declared),
        },
      });
      request.on('error', () => resolve());
      request.on('response', (response) => (response.resume(), resolve()));
      request.write(sent, () => setImmediate(() => (request.destroy(), resolve())));
    });

  it('keeps each of many uploads at once, of different sizes, byte for byte', async () => {
    const bodies = [
      WORD_PDF,
      ...(await Promise.all(
        Array.from({ length: 13 }, (_, index) =>
          index % 2 === 0 ? makePdfOfSize(200_000 + index * 120_000, index) : makePdf({ pages: index + 1 }),
        ),
      )),
    ];
    // Uploads cut off halfway among them: their memory goes back without reaching a contract.
    const large = bodies[1]!;
    const cutOff = Promise.all([0, 1, 2].map(() => sendShort(large.subarray(0, 50_000), large.length)));
    const created = await Promise.all(
      bodies.map((data) => t.api('POST', '/api/contracts', { raw: { data, contentType: PDF } })),
    );
    await cutOff;
    for (const [index, response] of created.entries()) {
      expect(response.status, response.text).toBe(201);
      const stored = await servedPdf(t, response.body.self);
      expect(sha256(stored), `upload ${index}`).toBe(sha256(bodies[index]!));
    }
    const count = (await rawSql(t.server.ctx.db).get('SELECT count(*) AS n FROM contracts')) as { n: number };
    expect(count.n).toBe(bodies.length);
  });

  it('takes a PDF sent in chunks (no Content-Length) as before, through body-parser', async () => {
    const pdf = await makePdf({ pages: 3 });
    const chunked = await fetch(`${t.url}/api/contracts`, {
      method: 'POST',
      headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1', 'content-type': PDF },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(pdf.subarray(0, 1000));
          controller.enqueue(pdf.subarray(1000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(201);
    const { self } = (await chunked.json()) as { self: string };
    expect((await servedPdf(t, self)).equals(Buffer.from(pdf))).toBe(true);
  });

  it('refuses a declared body over the limit at once with 413, reading none of it', async () => {
    const response = await t.api('POST', '/api/contracts', {
      raw: { data: new Uint8Array(2 * 1024 * 1024 + 1), contentType: PDF },
    });
    expect(response.status).toBe(413);
    expect(response.body.detail).toMatch(/2 MiB/);
  });
});
