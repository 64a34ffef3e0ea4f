import { useEffect, useState } from 'react';
import { useLatest } from '../../lib/use-latest';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PageSize } from './geometry';

export type PdfState =
  | { kind: 'loading' }
  | { kind: 'ready'; document: PDFDocumentProxy; sizes: PageSize[] }
  | { kind: 'failed'; message: string };

/**
 * A PDF opened with pdf.js (its worker one of our own assets, so the strict CSP holds), with
 * each page's size in points as displayed (rotation applied): the geometry of the API's fields.
 * Loaded again when `version` changes; destroyed when the page goes.
 */
export function usePdfDocument(load: () => Promise<Blob>, version: string): PdfState {
  // What the last opening gave, and for which version: a newer version shows as loading.
  const [opening, setOpening] = useState<{ version: string; state: PdfState }>();
  const loadRef = useLatest(load);
  useEffect(() => {
    let isCurrent = true;
    let opened: PDFDocumentProxy | undefined;
    (async () => {
      const [pdfjs, worker, blob] = await Promise.all([
        import('pdfjs-dist'),
        import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
        loadRef.current(),
      ]);
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      opened = await pdfjs.getDocument({ data: new Uint8Array(await blob.arrayBuffer()), isEvalSupported: false })
        .promise;
      if (!isCurrent) return void opened.destroy();
      const sizes: PageSize[] = [];
      for (let number = 1; number <= opened.numPages; number += 1) {
        const viewport = (await opened.getPage(number)).getViewport({ scale: 1 });
        sizes.push({ width: viewport.width, height: viewport.height });
      }
      if (isCurrent) setOpening({ version, state: { kind: 'ready', document: opened, sizes } });
    })().catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      if (isCurrent) setOpening({ version, state: { kind: 'failed', message } });
    });
    return () => {
      isCurrent = false;
      void opened?.destroy();
    };
  }, [version, loadRef]);
  return opening?.version === version ? opening.state : { kind: 'loading' };
}
