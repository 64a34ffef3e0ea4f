import { useEffect, useRef, useState } from 'react';
import { useT } from '../lib/i18n';
import { Loading } from './ui';

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
  const [state, setState] = useState<
    { kind: 'loading' } | { kind: 'ready'; pages: number } | { kind: 'failed'; message: string }
  >({ kind: 'loading' });
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    let isCurrent = true;
    const target = container.current;
    setState({ kind: 'loading' });
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
      setState({ kind: 'ready', pages: document.numPages });
      await document.destroy();
    })().catch((err: unknown) => {
      if (isCurrent) setState({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    });
    return () => {
      isCurrent = false;
    };
  }, [version, t]);

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
        tabIndex={0}
        role="group"
        aria-label={title}
        data-pages={state.kind === 'ready' ? state.pages : undefined}
      />
    </figure>
  );
}
