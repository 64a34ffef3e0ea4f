import { useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';
import { useLatest } from '../lib/use-latest';
import { Loading } from './ui';

type DrawState = { kind: 'loading' } | { kind: 'ready'; pages: number } | { kind: 'failed'; message: string };

type Props = {
  /** Fetches the PDF; called again whenever `version` changes. */
  load: () => Promise<Blob>;
  version: string | number;
  title: string;
};

/**
 * Every page of a PDF drawn on canvases with pdf.js (its worker is one of our own assets, so
 * the strict CSP holds; no eval). Works the same in the Electron window and any browser.
 */
export function PdfPreview({ load, version, title }: Props) {
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  // What the last drawing gave, and for which version and language: newer ones show as loading.
  const [drawn, setDrawn] = useState<{ version: string | number; t: typeof t; state: DrawState }>();
  const loadRef = useLatest(load);

  useEffect(() => {
    let isCurrent = true;
    const target = container.current;
    const settle = (state: DrawState) => setDrawn({ version, t, state });
    (async () => {
      const [pdfjs, worker, blob] = await Promise.all([
        import('pdfjs-dist'),
        import('pdfjs-dist/build/pdf.worker.min.mjs?url'),
        loadRef.current(),
      ]);
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const document = await pdfjs.getDocument({
        data: new Uint8Array(await blob.arrayBuffer()),
        isEvalSupported: false,
      }).promise;
      if (!isCurrent || !target) return;
      const canvases: HTMLCanvasElement[] = [];
      for (let number = 1; number <= document.numPages; number += 1) {
        const page = await document.getPage(number);
        const viewport = page.getViewport({ scale: 1.5 });
        const canvas = window.document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = 'pdf-page';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('pdf.page', { page: number, pages: document.numPages }));
        await page.render({ canvas, viewport }).promise;
        canvases.push(canvas);
        if (!isCurrent) return;
      }
      target.replaceChildren(...canvases);
      settle({ kind: 'ready', pages: document.numPages });
      await document.destroy();
    })().catch((err: unknown) => {
      if (isCurrent) settle({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    });
    return () => {
      isCurrent = false;
    };
  }, [version, t, loadRef]);

  const state: DrawState = drawn?.version === version && drawn.t === t ? drawn.state : { kind: 'loading' };
  return (
    <figure className="pdf-preview" aria-busy={state.kind === 'loading'}>
      <figcaption className="visually-hidden">{title}</figcaption>
      {state.kind === 'loading' ? <Loading label={t('pdf.loading')} /> : null}
      {state.kind === 'failed' ? (
        <p className="pdf-error" role="alert">
          {t('pdf.failed')} {state.message}
        </p>
      ) : null}
      {/* Focusable, so that the pages scroll with the keyboard too. */}
      <div
        ref={container}
        className="pdf-pages"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must take the focus
        tabIndex={0}
        role="group"
        aria-label={title}
        data-pages={state.kind === 'ready' ? state.pages : undefined}
      />
    </figure>
  );
}
