import { pageLoader } from './page-loader';

/**
 * Takes the party to an element on a page (a field, a page's box): its page's image is fetched
 * first, and the screen jumps there at once when it is more than a screen away, so the pages
 * in between are never drawn nor fetched (page-loader.ts); a near one glides, unless the party
 * asked for less motion.
 */
export function jumpTo(element: HTMLElement | null, block: ScrollLogicalPosition = 'center'): void {
  if (!element) return;
  const page = Number(element.closest<HTMLElement>('[data-page]')?.dataset.page);
  if (page) pageLoader().focus(page);
  const box = element.getBoundingClientRect();
  const isFar = box.bottom < -window.innerHeight || box.top > 2 * window.innerHeight;
  const isCalm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  // 'auto' (no CSS scroll-behavior here) is an instant jump in every browser; older Safari refuses 'instant'.
  element.scrollIntoView({ behavior: isFar || isCalm ? 'auto' : 'smooth', block, inline: 'center' });
}
