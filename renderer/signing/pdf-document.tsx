import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState, type ReactNode } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Loads the PDF once; pages render themselves when they scroll into view. */
export function usePdfDocument(url: string): { document: PDFDocumentProxy | undefined; error: boolean } {
  const [document, setDocument] = useState<PDFDocumentProxy>();
  const [error, setError] = useState(false);
  useEffect(() => {
    let isCancelled = false;
    const task = getDocument({ url, isEvalSupported: false, useWasm: false, withCredentials: true });
    task.promise.then(
      (loaded) => !isCancelled && setDocument(loaded),
      () => !isCancelled && setError(true),
    );
    return () => {
      isCancelled = true;
      void task.destroy();
    };
  }, [url]);
  return { document, error };
}

type PageProps = {
  document: PDFDocumentProxy | undefined;
  pageNumber: number;
  width: number;
  height: number;
  label: string;
  /** Field overlays, positioned in percentages of the page. */
  children?: ReactNode;
};

export function PdfPage({ document, pageNumber, width, height, label, children }: PageProps) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [isVisible, setVisible] = useState(false);
  const [isRendered, setRendered] = useState(false);

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setVisible(true);
    }, { rootMargin: '600px 0px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!document || !isVisible || !canvas.current || !frame.current) return;
    let isCancelled = false;
    const target = canvas.current;
    const cssWidth = frame.current.clientWidth;
    void document.getPage(pageNumber).then(async (page) => {
      const base = page.getViewport({ scale: 1 });
      const scale = (cssWidth / base.width) * Math.min(window.devicePixelRatio || 1, 2);
      const viewport = page.getViewport({ scale });
      target.width = Math.floor(viewport.width);
      target.height = Math.floor(viewport.height);
      const task = page.render({ canvas: target, viewport });
      await task.promise.catch(() => undefined);
      if (!isCancelled) setRendered(true);
    });
    return () => {
      isCancelled = true;
    };
  }, [document, isVisible, pageNumber]);

  return (
    <section className="page" aria-label={label}>
      <div className="page-frame" ref={frame} style={{ aspectRatio: `${width} / ${height}` }} data-rendered={isRendered}>
        <canvas ref={canvas} aria-hidden="true" />
        {children}
      </div>
      <p className="page-number">{label}</p>
    </section>
  );
}
