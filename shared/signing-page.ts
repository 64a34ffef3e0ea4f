/**
 * Constants of the party signing page that its bundle needs at run time, apart from the API
 * schemas (shared/api/signing.ts): the page imports only types from there, keeping zod out of a
 * bundle that phones download on slow links.
 */

/**
 * Widths (pixels) the signing page's page images come in; the browser picks by screen and zoom
 * (the first at least as dense as the screen): 810 for a laptop's 800 px column, 1170 for phones
 * at three device pixels per CSS pixel (390 px wide less margins), 1620 for 2x laptops, 2340 to zoom.
 */
export const PAGE_IMAGE_WIDTHS = [540, 810, 1170, 1620, 2340] as const;
/** How wide a page is drawn at 100 %: the whole phone screen less a margin, else the 50rem document column. */
export const PAGE_IMAGE_SIZES = '(max-width: 56rem) calc(100vw - 1rem), 50rem';

/** `srcset` of a page at every width. */
export const pageImageSrcset = (base: string, page: number, widths: readonly number[]) =>
  widths.map((width) => `${base}/${page}-${width}.webp ${width}w`).join(', ');

/** The script faces a party may type its signature in (SIL OFL; the sealed PDF embeds the same face). */
export const SCRIPT_FACES = ['dancing-script', 'great-vibes', 'caveat'] as const;
export type ScriptFace = (typeof SCRIPT_FACES)[number];

/** A drawn or uploaded mark: a PNG or JPEG as a data URL, at most 1 MiB of image (after the page shrank it). */
export const MAX_MARK_BYTES = 1024 * 1024;
