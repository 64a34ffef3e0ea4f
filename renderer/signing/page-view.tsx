import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { PAGE_IMAGE_SIZES, pageImageSrcset } from '../../shared/signing-page';
import type { SigningTranslate } from './i18n';
import { useLinkSession } from './link-session';
import { pageLoader } from './page-loader';
import { usePageImage } from './use-page-image';

type Props = {
  images: { base: string; widths: number[] };
  page: number;
  total: number;
  size: { width: number; height: number };
  zoom: number;
  t: SigningTranslate;
  /** The party's fields on this page. */
  children?: ReactNode;
};

/** `sizes` at a zoom: the page is that many times as wide as at 100 %. */
function sizesAt(zoom: number): string {
  if (zoom === 1) return PAGE_IMAGE_SIZES;
  return `(max-width: 56rem) calc((100vw - 1rem) * ${zoom}), calc(50rem * ${zoom})`;
}

/**
 * One page: the server's picture of it at the width this screen and zoom need, a placeholder
 * saying it is on its way until it arrives, and the party's fields over it. The first page is an
 * <img srcset> the HTML preloads (the browser picks the width); every other page, and the first
 * too when the page's own session carries the link (a frame of another site: an <img> cannot send
 * its header, link-session.ts), comes when the page loader hands it out (page-loader.ts).
 */
export function PageView({ images, page, total, size, zoom, t, children }: Props) {
  const [status, setStatus] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  const image = useRef<HTMLImageElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const { mode } = useLinkSession();
  const isPreloaded = page === 1 && mode !== 'header';
  const later = usePageImage(
    frame,
    page,
    (width) => `${images.base}/${page}-${width}.webp`,
    images.widths,
    zoom,
    () => setStatus('failed'),
    !isPreloaded,
  );
  // Without a preloaded first page the loader has nothing to wait for: it starts with the pages on screen.
  useLayoutEffect(() => {
    if (!isPreloaded && page === 1) pageLoader().begin();
  }, [isPreloaded, page]);
  // An image already there (the first page, loaded while the script came) shows at once, no placeholder in between.
  useLayoutEffect(() => {
    if (!image.current?.complete || image.current.naturalWidth === 0) return;
    setStatus('loaded');
    pageLoader().begin();
  }, [attempt]);
  const label = t('pageOf', { page, total });
  // The first page's image carries element timing: bench/signing-page.ts measures when it is drawn.
  const timing = page === 1 ? { elementtiming: 'first-page' } : {};
  return (
    <section className="page" aria-label={label}>
      <div
        ref={frame}
        className="page-frame"
        data-page={page}
        style={{ aspectRatio: `${size.width} / ${size.height}` }}
        data-state={status}
      >
        {status !== 'loaded' && (
          <div className="page-placeholder" role={status === 'failed' ? 'alert' : 'status'}>
            {status === 'loading' ? (
              <>
                <span className="spinner" aria-hidden="true" />
                {t('pageLoading', { page, total })}
              </>
            ) : (
              <>
                {t('pageFailed')}
                <button
                  type="button"
                  className="secondary"
                  onClick={() => (setStatus('loading'), isPreloaded ? setAttempt((n) => n + 1) : later.retry())}
                >
                  {t('retry')}
                </button>
              </>
            )}
          </div>
        )}
        {isPreloaded ? (
          <img
            key={attempt}
            ref={image}
            className="page-image"
            srcSet={pageImageSrcset(images.base, page, images.widths)}
            sizes={sizesAt(zoom)}
            alt={label}
            fetchPriority="high"
            decoding="async"
            onLoad={() => (setStatus('loaded'), pageLoader().begin())}
            onError={() => (setStatus('failed'), pageLoader().begin())}
            {...timing}
          />
        ) : (
          later.src && (
            <img
              className="page-image"
              src={later.src}
              alt={label}
              // bench/signing-page.ts times a far page by it, as it times the first.
              {...(page === 1 ? timing : { elementtiming: `page-${page}` })}
              decoding="async"
              onLoad={() => setStatus('loaded')}
              onError={() => setStatus('failed')}
            />
          )
        )}
        {children}
      </div>
    </section>
  );
}
