import { useEffect, useState, type RefObject } from 'react';
import { pageImageSrcset } from '../../shared/signing-page';
import { sessionHeaders, useLinkSession } from './link-session';

/** An image that fails to decode: the <img> reports an error, and the page offers Retry. */
const BROKEN = 'data:image/webp;base64,';

type ImageSource = { srcSet: string; sizes: string } | { src: string } | Record<string, never>;

/**
 * Where the first page's <img> gets its picture (later pages come through page-loader.ts, which
 * sends the session's header itself). Normally the browser picks from `srcset` and its cookie
 * (if the code was needed) goes along. When the page's own session carries the link (a frame of
 * another site: link-session.ts) an <img> cannot send it, so the picture is fetched with the
 * session's header once its page comes near the screen, at the width the screen needs, and
 * shown from a blob: URL (the browser's HTTP cache still keeps it).
 */
export function usePageImageSource(
  image: RefObject<HTMLImageElement | null>,
  images: { base: string; widths: number[] },
  page: number,
  zoom: number,
  sizes: string,
  attempt: number,
): ImageSource {
  const { mode } = useLinkSession();
  const [src, setSrc] = useState<string>();
  const isHeader = mode === 'header' && page === 1;
  const { base, widths } = images;
  useEffect(() => {
    const frame = image.current?.parentElement;
    if (!isHeader || !frame) return;
    const abort = new AbortController();
    let url: string | undefined;
    const load = () => {
      const needed = frame.clientWidth * window.devicePixelRatio;
      const width = widths.find((each) => each >= needed) ?? widths.at(-1)!;
      fetch(`${base}/${page}-${width}.webp`, { headers: sessionHeaders(), signal: abort.signal })
        .then((response) => (response.ok ? response.blob() : Promise.reject(new Error(String(response.status)))))
        .then((blob) => {
          url = URL.createObjectURL(blob);
          setSrc(url);
        })
        .catch(() => {
          if (!abort.signal.aborted) setSrc(BROKEN);
        });
    };
    // Only once near the screen, as loading="lazy" would do.
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        load();
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(frame);
    return () => {
      observer.disconnect();
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [image, isHeader, base, widths, page, zoom, attempt]);
  if (!isHeader) return { srcSet: pageImageSrcset(base, page, widths), sizes };
  return src ? { src } : {};
}
