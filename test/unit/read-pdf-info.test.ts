import { afterEach, describe, expect, it, vi } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { readPdfInfo } from '../../server/pdf/read-pdf-info';
import { encryptPdf, makePdf } from '../helpers/pdfs';

describe("an upload's read (readPdfInfo)", () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a PDF of hundreds of objects in one go, never waiting on a timer', async () => {
    const pdf = await makePdf({ pages: 150 });
    expect((await PDFDocument.load(pdf)).context.enumerateIndirectObjects().length).toBeGreaterThan(300);
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const info = await readPdfInfo(pdf, 500);
    expect(info.pageSizes).toHaveLength(150);
    expect(timers).not.toHaveBeenCalled();
  });

  it('tells an encrypted PDF of hundreds of objects, also without a timer', async () => {
    const pdf = encryptPdf(await makePdf({ pages: 150 }));
    const timers = vi.spyOn(globalThis, 'setTimeout');
    await expect(readPdfInfo(pdf, 500)).rejects.toMatchObject({ problem: 'encrypted' });
    expect(timers).not.toHaveBeenCalled();
  });
});
