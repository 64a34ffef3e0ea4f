import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { PdfReadError } from '../../server/pdf/pdf-read-error';
import { createPdfSandbox } from '../../server/pdf/sandbox/pdf-sandbox';
import { createSharedBufferPool, releaseShared } from '../../server/core/shared-buffers';
import { assemblePdf, inflateBomb, pageTreeBomb } from '../helpers/hostile-pdfs';
import { makePdf } from '../helpers/pdfs';

/** A real PNG of all-transparent pixels (the review's mark at the size cap is 4000x1000). */
function transparentPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(height * (1 + width * 4)), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('the PDF sandbox', () => {
  const sandbox = createPdfSandbox({ size: 2, timeoutMs: 20_000, maxHeapMb: 256, maxInflatedBytes: 32 * 2 ** 20 });
  afterAll(() => sandbox.close());

  it('reads PDFs on worker threads, several at once', async () => {
    const [three, one] = await Promise.all([
      sandbox.run('inspect', { bytes: await makePdf({ pages: 3 }), maxPages: 10 }),
      sandbox.run('inspect', { bytes: await makePdf({ pages: 1, size: [612, 792] }), maxPages: 10 }),
    ]);
    expect(three.pageSizes).toHaveLength(3);
    expect(one.pageSizes).toEqual([[612, 792]]);
  });

  it('hashes an upload on the worker: the SHA-256 its file is stored under', async () => {
    const bytes = await makePdf({ pages: 2 });
    const inspected = await sandbox.run('inspect', { bytes, maxPages: 10 });
    expect(inspected.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it("hands a task a copy of the caller's bytes: the caller's stay whole and unchanged", async () => {
    const bytes = Buffer.from(await makePdf({ pages: 2 }));
    const before = Buffer.from(bytes);
    expect((await sandbox.run('inspect', { bytes, maxPages: 10 })).pageSizes).toHaveLength(2);
    expect(bytes.buffer.byteLength).toBeGreaterThan(0);
    expect(bytes.equals(before)).toBe(true);
  });

  it('reads given bytes in the upload memory in place, and keeps their slot from reuse until the task settles', async () => {
    const pdf = await makePdf({ pages: 2 });
    const pool = createSharedBufferPool({ slotBytes: pdf.length, maxIdleSlots: 2 });
    const one = createPdfSandbox({ size: 1, timeoutMs: 20_000, maxHeapMb: 256, maxInflatedBytes: 32 * 2 ** 20 });
    try {
      // The worker is busy with a long task: the upload's task waits in line.
      const busy = one.run('inspect', { bytes: await makePdf({ pages: 40 }), maxPages: 100 });
      const bytes = pool.take(pdf.length)!;
      bytes.set(pdf);
      const inspected = one.run('inspect', { bytes, maxPages: 10 }, { giveBytes: true });
      // The request lets go (its client went away) while the task still waits: the slot stays lent.
      releaseShared(bytes);
      const next = pool.take(pdf.length)!;
      expect(next.buffer).not.toBe(bytes.buffer);
      next.fill(0);
      await busy;
      expect((await inspected).sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
      expect(bytes.length).toBe(pdf.length);
      releaseShared(next);
      expect(pool.take(pdf.length)!.buffer).toBe(next.buffer);
      expect(pool.take(pdf.length)!.buffer).toBe(bytes.buffer);
    } finally {
      await one.close();
    }
  });

  it('brings back what is wrong with a PDF as a PdfReadError, and keeps serving', async () => {
    const refused = await sandbox
      .run('inspect', { bytes: new TextEncoder().encode('not a pdf at all'), maxPages: 10 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PdfReadError);
    expect(refused).toMatchObject({ problem: 'not-pdf' });
    const tooMany = await sandbox
      .run('inspect', { bytes: await makePdf({ pages: 3 }), maxPages: 2 })
      .catch((error: unknown) => error);
    expect(tooMany).toMatchObject({ problem: 'too-many-pages' });
    expect((await sandbox.run('inspect', { bytes: await makePdf(), maxPages: 2 })).pageSizes).toHaveLength(1);
  });

  it('refuses what would make a reader loop, recurse or unpack without end, and keeps serving', async () => {
    const refusal = (bytes: Uint8Array) =>
      sandbox.run('inspect', { bytes, maxPages: 1_000 }).then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(await refusal(pageTreeBomb(30))).toMatchObject({
      problem: 'damaged',
      message: expect.stringMatching(/page tree/),
    });
    // A branch that lists its own parent among its kids.
    const loop = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 2 >>',
      '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 2 0 R] /Count 2 >>',
      '<< /Type /Page /Parent 3 0 R /MediaBox [0 0 595 842] >>',
    ]);
    expect(await refusal(loop)).toMatchObject({ problem: 'damaged' });
    // A tree 40 levels deep with one page at the bottom.
    const deep = ['<< /Type /Catalog /Pages 2 0 R >>'];
    for (let level = 0; level < 40; level += 1) deep.push(`<< /Type /Pages /Kids [${level + 3} 0 R] /Count 1 >>`);
    deep.push('<< /Type /Page /MediaBox [0 0 595 842] >>');
    expect(await refusal(assemblePdf(deep))).toMatchObject({
      problem: 'too-complex',
      message: expect.stringMatching(/nested/),
    });
    // An object nested 200,000 arrays deep: the parser's recursion fails, and the PDF with it.
    const nested = assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R /Deep 3 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    ]);
    expect(await refusal(nested)).toMatchObject({ problem: 'damaged' });
    expect(await refusal(await inflateBomb(2))).toMatchObject({
      problem: 'too-complex',
      message: expect.stringMatching(/unpack to more than 32 MiB/),
    });
    expect((await sandbox.run('inspect', { bytes: await makePdf({ pages: 2 }), maxPages: 10 })).pageSizes).toHaveLength(
      2,
    );
  });

  it('takes a waiting task out of the line when its asker gives it up, and runs the rest', async () => {
    const single = createPdfSandbox({ size: 1, timeoutMs: 20_000, maxHeapMb: 256, maxInflatedBytes: 32 * 2 ** 20 });
    try {
      const bytes = await makePdf({ pages: 3 });
      const done: string[] = [];
      const first = single.run('inspect', { bytes, maxPages: 10 }).then(() => done.push('first'));
      const giveUp = new AbortController();
      const dropped = single.run('inspect', { bytes, maxPages: 10 }, { signal: giveUp.signal }).then(
        () => done.push('dropped'),
        (error: Error) => done.push(`dropped: ${error.message}`),
      );
      const last = single.run('inspect', { bytes, maxPages: 10 }).then(() => done.push('last'));
      giveUp.abort(new Error('the browser left'));
      await Promise.all([first, dropped, last]);
      // Given up while the one worker was busy with the first: it failed at once and never ran.
      expect(done).toEqual(['dropped: the browser left', 'first', 'last']);
      // A signal already aborted never enters the line.
      await expect(single.run('inspect', { bytes, maxPages: 10 }, { signal: giveUp.signal })).rejects.toThrow(
        'the browser left',
      );
    } finally {
      await single.close();
    }
  });

  it("keeps a worker for the office's work while parties' work fills the line", async () => {
    const pool = createPdfSandbox({ size: 2, timeoutMs: 20_000, maxHeapMb: 256, maxInflatedBytes: 32 * 2 ** 20 });
    try {
      // Both workers started and ready: two office tasks at once.
      const small = await makePdf({ pages: 1 });
      await Promise.all([0, 1].map(() => pool.run('inspect', { bytes: small, maxPages: 2 })));
      const done: string[] = [];
      const settle = (name: string) => [() => done.push(name), () => done.push(name)] as const;
      // Four marks at the size cap on one link, as the review's attacker sent them, then an office task.
      const big = transparentPng(4000, 1000);
      const marks = [0, 1, 2, 3].map((n) =>
        pool.run('prepare-mark', { bytes: big }, { source: 'party:7' }).then(...settle(`mark ${n}`)),
      );
      const office = pool.run('inspect', { bytes: small, maxPages: 2 }).then(...settle('office'));
      await Promise.all([...marks, office]);
      // The office's task did not wait for a mark: one worker stayed free for it.
      expect(done[0]).toBe('office');
      expect(done.slice(1)).toEqual(['mark 0', 'mark 1', 'mark 2', 'mark 3']);
    } finally {
      await pool.close();
    }
  });

  it('lets the task a worker runs finish when it closes, and fails those still waiting', async () => {
    const closing = createPdfSandbox({ size: 1, timeoutMs: 20_000, maxHeapMb: 128, maxInflatedBytes: 32 * 2 ** 20 });
    const bytes = await makePdf({ pages: 40 });
    await closing.run('inspect', { bytes, maxPages: 100 });
    const running = closing.run('inspect', { bytes, maxPages: 100 });
    const waiting = closing.run('inspect', { bytes, maxPages: 100 }).catch((error: unknown) => error);
    await closing.close();
    expect((await running).pageSizes).toHaveLength(40);
    // The server is shutting down: a request still waiting is a 503 to try again, not a failure of the service.
    expect(await waiting).toMatchObject({
      code: 'service-unavailable',
      message: expect.stringMatching(/shutting down/),
    });
  });

  it('fails what is asked after it closed', async () => {
    const closed = createPdfSandbox({ size: 1, timeoutMs: 1_000, maxHeapMb: 128, maxInflatedBytes: 32 * 2 ** 20 });
    await closed.run('inspect', { bytes: await makePdf(), maxPages: 2 });
    await closed.close();
    await expect(closed.run('inspect', { bytes: await makePdf(), maxPages: 2 })).rejects.toMatchObject({
      code: 'service-unavailable',
    });
  });
});
