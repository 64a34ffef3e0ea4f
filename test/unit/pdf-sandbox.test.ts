import { afterAll, describe, expect, it } from 'vitest';
import { PdfReadError } from '../../server/pdf/pdf-read-error';
import { createPdfSandbox } from '../../server/pdf/sandbox/pdf-sandbox';
import { makePdf } from '../helpers/pdfs';

describe('the PDF sandbox', () => {
  const sandbox = createPdfSandbox({ size: 2, timeoutMs: 20_000, maxHeapMb: 256 });
  afterAll(() => sandbox.close());

  it('reads PDFs on worker threads, several at once', async () => {
    const [three, one] = await Promise.all([
      sandbox.run('inspect', { bytes: await makePdf({ pages: 3 }), maxPages: 10 }),
      sandbox.run('inspect', { bytes: await makePdf({ pages: 1, size: [612, 792] }), maxPages: 10 }),
    ]);
    expect(three.pageSizes).toHaveLength(3);
    expect(one.pageSizes).toEqual([[612, 792]]);
  });

  it('brings back what is wrong with a PDF as a PdfReadError, and keeps serving', async () => {
    const refused = await sandbox.run('inspect', { bytes: new TextEncoder().encode('not a pdf at all'), maxPages: 10 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PdfReadError);
    expect(refused).toMatchObject({ problem: 'not-pdf' });
    const tooMany = await sandbox.run('inspect', { bytes: await makePdf({ pages: 3 }), maxPages: 2 }).catch((error: unknown) => error);
    expect(tooMany).toMatchObject({ problem: 'too-many-pages' });
    expect((await sandbox.run('inspect', { bytes: await makePdf(), maxPages: 2 })).pageSizes).toHaveLength(1);
  });

  it('fails what is asked after it closed', async () => {
    const closed = createPdfSandbox({ size: 1, timeoutMs: 1_000, maxHeapMb: 128 });
    await closed.run('inspect', { bytes: await makePdf(), maxPages: 2 });
    await closed.close();
    await expect(closed.run('inspect', { bytes: await makePdf(), maxPages: 2 })).rejects.toThrow(/closed/);
  });
});
