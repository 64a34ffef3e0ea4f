import { sessionHeaders } from './link-session';

/**
 * Which page images the signing page downloads, and when. A long contract on a slow phone link
 * must not fetch every page a jump or a fling passes over, nor let page images hold the
 * connection an answer needs (HTTP/1.1 gives a host six). So, for every page after the first
 * (the first is inlined in the HTML and preloaded):
 * - a page is fetched only while it is on or near the screen once scrolling has paused; a fetch
 *   of a page that has left that band is aborted;
 * - a page jumped to (a field, a page number) is fetched first and alone until it has arrived;
 * - at most MAX_IN_FLIGHT fetches run at once, nearest to the middle of the screen first;
 * - while the party's answer is on its way every fetch is aborted and none starts.
 * Images come as blobs (fetch can be aborted, an <img> cannot reliably), at the width of
 * PAGE_IMAGE_WIDTHS the page's box needs on this screen; the URLs are immutable, so the browser's
 * HTTP cache keeps them.
 */

/** Page images downloading at once, at most: well below six, so answers always find a connection. */
export const MAX_IN_FLIGHT = 2;
/** How long scrolling must pause before the pages on screen are fetched; and the longest wait while it goes on. */
const SETTLE_MS = 120;
const SETTLE_MAX_MS = 500;

export type PageSlot = {
  /** The page's box (its aspect ratio holds its place before the image comes). */
  element: HTMLElement;
  /** The image's URL at a width. */
  urlAt: (width: number) => string;
  widths: readonly number[];
  show: (url: string) => void;
  fail: () => void;
};

type Entry = PageSlot & {
  page: number;
  loadedWidth: number;
  hasFailed: boolean;
  controller?: AbortController;
  fetchingWidth?: number;
};

/** The smallest width that fills `pixels` device pixels, else the largest there is. */
export function widthFor(widths: readonly number[], pixels: number): number {
  const sorted = [...widths].sort((a, b) => a - b);
  return sorted.find((width) => width >= pixels) ?? sorted.at(-1) ?? 0;
}

export function createPageLoader() {
  const entries = new Map<number, Entry>();
  const near = new Set<number>();
  let observer: IntersectionObserver | undefined;
  let target: number | undefined;
  /** Until the first page has arrived (or a jump), the link is the first page's alone. */
  let isStarted = false;
  let holds = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitingSince = 0;

  const inFlight = () => [...entries.values()].filter((entry) => entry.controller);
  const neededWidth = (entry: Entry) =>
    widthFor(entry.widths, entry.element.getBoundingClientRect().width * (window.devicePixelRatio || 1));
  const needsFetch = (entry: Entry) => !entry.hasFailed && entry.loadedWidth < neededWidth(entry);
  const distance = (entry: Entry) => {
    const box = entry.element.getBoundingClientRect();
    return Math.abs((box.top + box.bottom) / 2 - window.innerHeight / 2);
  };

  const abort = (entry: Entry) => {
    entry.controller?.abort();
    entry.controller = undefined;
    entry.fetchingWidth = undefined;
  };

  const start = (entry: Entry) => {
    const width = neededWidth(entry);
    const controller = new AbortController();
    entry.controller = controller;
    entry.fetchingWidth = width;
    const done = () => {
      if (entry.controller === controller) entry.controller = undefined;
      entry.fetchingWidth = undefined;
      if (target === entry.page) target = undefined;
      pump();
    };
    fetch(entry.urlAt(width), { signal: controller.signal, credentials: 'same-origin', headers: sessionHeaders() })
      .then(async (response) => {
        if (!response.ok) throw new Error(`page ${entry.page}: HTTP ${response.status}`);
        const blob = await response.blob();
        if (controller.signal.aborted) return;
        entry.loadedWidth = width;
        entry.show(URL.createObjectURL(blob));
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        entry.hasFailed = true;
        entry.fail();
      })
      .finally(done);
  };

  /** Aborts what is no longer wanted and starts what is, within the limits. */
  function pump() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    waitingSince = 0;
    let aimed = target === undefined ? undefined : entries.get(target);
    // A page jumped to that is already there (or failed) is no longer anyone's first.
    if (aimed && !aimed.controller && !needsFetch(aimed)) aimed = target = undefined;
    for (const entry of inFlight()) {
      if (holds > 0 || (!near.has(entry.page) && entry !== aimed)) abort(entry);
    }
    if (holds > 0) return;
    if (aimed && needsFetch(aimed)) {
      // The page jumped to comes first, alone.
      for (const entry of inFlight()) if (entry !== aimed) abort(entry);
      if (!aimed.controller) start(aimed);
      return;
    }
    if (!isStarted) return;
    const wanted = [...near]
      .map((page) => entries.get(page))
      .filter((entry): entry is Entry => !!entry && !entry.controller && needsFetch(entry))
      .sort((a, b) => distance(a) - distance(b));
    for (const entry of wanted.slice(0, Math.max(0, MAX_IN_FLIGHT - inFlight().length))) start(entry);
  }

  /** Pumps once scrolling has paused (or has gone on for SETTLE_MAX_MS). */
  const settle = () => {
    const now = Date.now();
    if (!waitingSince) waitingSince = now;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(pump, Math.max(0, Math.min(SETTLE_MS, waitingSince + SETTLE_MAX_MS - now)));
  };

  const observe = () => {
    if (observer) return observer;
    observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) {
          const page = [...entries.values()].find((entry) => entry.element === change.target)?.page;
          if (page === undefined) continue;
          if (change.isIntersecting) near.add(page);
          else near.delete(page);
        }
        settle();
      },
      // On screen, within half a screen above it or a screen below (a party reads down): the next
      // page is there when the party reaches it.
      { rootMargin: '50% 0px 100% 0px' },
    );
    return observer;
  };

  return {
    /** A page's box takes part; returns its leaving. */
    register(page: number, slot: PageSlot): () => void {
      const entry: Entry = { ...slot, page, loadedWidth: 0, hasFailed: false };
      entries.set(page, entry);
      observe().observe(slot.element);
      return () => {
        abort(entry);
        observer?.unobserve(slot.element);
        near.delete(page);
        if (entries.get(page) === entry) entries.delete(page);
      };
    },
    /** The party is taken to this page: it is fetched before any other. */
    focus(page: number) {
      isStarted = true;
      target = entries.has(page) ? page : undefined;
      pump();
    },
    /** The first page is there (or could not come): the others may follow. */
    begin() {
      if (isStarted) return;
      isStarted = true;
      settle();
    },
    /** Try a page that failed again. */
    retry(page: number) {
      const entry = entries.get(page);
      if (entry) entry.hasFailed = false;
      pump();
    },
    /** The screen or zoom changed: pages may need another width. */
    refresh: settle,
    /** The party's answer is on its way: every image waits; returns the end of the wait. */
    hold(): () => void {
      holds += 1;
      pump();
      let isReleased = false;
      return () => {
        if (isReleased) return;
        isReleased = true;
        holds -= 1;
        settle();
      };
    },
  };
}

export type PageLoader = ReturnType<typeof createPageLoader>;

let shared: PageLoader | undefined;

/** The signing page's one loader (made on first use, never at import). */
export function pageLoader(): PageLoader {
  shared ??= createPageLoader();
  return shared;
}
