import { useEffect, useState, type RefObject } from 'react';
import { pageLoader } from './page-loader';

/**
 * The image of one page as the page loader hands it out (see page-loader.ts), while `isActive`:
 * undefined until the page's turn came and its picture arrived. `retry` asks again after a failure.
 */
export function usePageImage(
  frame: RefObject<HTMLElement | null>,
  page: number,
  urlAt: (width: number) => string,
  widths: readonly number[],
  zoom: number,
  onFail: () => void,
  isActive: boolean,
): { src: string | undefined; retry: () => void } {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    const element = frame.current;
    if (!isActive || !element) return;
    let shown: string | undefined;
    const leave = pageLoader().register(page, {
      element,
      urlAt,
      widths,
      show: (url) => {
        if (shown) URL.revokeObjectURL(shown);
        shown = url;
        setSrc(url);
      },
      fail: onFail,
    });
    return () => {
      leave();
      if (shown) URL.revokeObjectURL(shown);
    };
    // The page's place and images stay for the life of the page; the callbacks are read when used.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isActive, page]);
  // A new zoom may want a wider picture.
  useEffect(() => {
    if (isActive) pageLoader().refresh();
  }, [isActive, zoom]);
  return { src, retry: () => pageLoader().retry(page) };
}
