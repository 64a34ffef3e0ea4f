import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { PAGE_IMAGE_SIZES } from '../../shared/signing-page';
import type { SigningTranslate } from './i18n';
import { usePageImageSource } from './page-image-source';

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
 * One page: the server's picture of it at the width this screen and zoom need (the browser
 * picks from srcset), a placeholder saying it is on its way until it arrives, and the party's
 * fields over it. Pages after the second load as they come near the screen.
 */
export function PageView({ images, page, total, size, zoom, t, children }: Props) {
  const [status, setStatus] = useState<'loading' | 'loaded' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  const image = useRef<HTMLImageElement>(null);
  // An image already there (the first page, loaded while the script came) shows at once, no placeholder in between.
  useLayoutEffect(() => {
    if (image.current?.complete && image.current.naturalWidth > 0) setStatus('loaded');
  }, [attempt]);
  const source = usePageImageSource(image, images, page, zoom, sizesAt(zoom), attempt);
  const label = t('pageOf', { page, total });
  // The first page's image carries element timing: bench/signing-page.ts measures when it is drawn.
  const timing = page === 1 ? { elementtiming: 'first-page' } : {};
  return (
    <section className="page" aria-label={label}>
      <div className="page-frame" style={{ aspectRatio: `${size.width} / ${size.height}` }} data-state={status}>
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
                  onClick={() => (setStatus('loading'), setAttempt((n) => n + 1))}
                >
                  {t('retry')}
                </button>
              </>
            )}
          </div>
        )}
        <img
          key={attempt}
          ref={image}
          className="page-image"
          {...source}
          alt={label}
          loading={page <= 2 ? 'eager' : 'lazy'}
          fetchPriority={page === 1 ? 'high' : 'auto'}
          decoding="async"
          onLoad={() => setStatus('loaded')}
          onError={() => setStatus('failed')}
          {...timing}
        />
        {children}
      </div>
    </section>
  );
}
