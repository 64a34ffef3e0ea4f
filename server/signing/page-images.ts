import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { PAGE_IMAGE_WIDTHS } from '../../shared/api/signing';
import { parsePageSizes } from '../contracts/contract-fields';
import { tagCoversOf } from '../contracts/tag-fields';
import type { TagCoverBox } from '../pdf/tag-cover';
import { createByteCache } from '../core/byte-cache';

type CachedImage = { bytes: Buffer; contentType: string };

/** Rendered pages kept in memory at most (a 50-page contract at two phone widths is ~5 MiB). */
const CACHE_BYTES = 64 * 1024 * 1024;
/** Pages with fields drawn ahead at most: a contract with fields on every page is drawn as asked. */
const FIELD_PAGES_AHEAD = 8;

/**
 * The pages of contracts as images for the signing page: rendered on demand in the PDF sandbox
 * (pdf.js never runs in the party's browser), one render per page and width however many ask
 * at once, and kept in memory by recent use. The text tags fields were made from are painted
 * over, as in the sealed PDF. Only the widths of PAGE_IMAGE_WIDTHS exist.
 */
export function createPageImages(ctx: AppContext) {
  const cache = createByteCache<CachedImage>(CACHE_BYTES, (image) => image.bytes.length);

  /**
   * A page being drawn, and who waits for it: when every asker has gone (a party's browser
   * scrolled past or answered and cancelled the image) before a worker took it, it is not drawn.
   * Drawing ahead (`warm`) is an asker that never goes.
   */
  type Pending = { image: Promise<CachedImage>; controller: AbortController; askers: number; isKept: boolean };
  const rendering = new Map<string, Pending>();

  const render = async (
    contract: ContractRow,
    page: number,
    width: number,
    signal?: AbortSignal,
  ): Promise<CachedImage> => {
    const sha256 = await ctx.repos.files.getSha256(contract.originalFileId);
    if (!sha256) return Promise.reject(new Error(`contract ${contract.id} has lost its PDF`));
    const covers = await coversOf(ctx, contract.id, page);
    const key = `${sha256}:${page}:${width}:${JSON.stringify(covers)}`;
    const hit = cache.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = rendering.get(key);
    if (!pending) {
      const controller = new AbortController();
      const image = ctx.repos.files
        .readFile(contract.originalFileId)
        // A lane per contract in the sandbox's turns: one document's pages never hold up the
        // office's work (a party's seal at signing) or another document's first page.
        .then((file) =>
          ctx.pdf.run(
            'render-page',
            { key: sha256, bytes: file?.data ?? new Uint8Array(), page, width, covers },
            { source: `pages:${contract.id}`, signal: controller.signal },
          ),
        )
        .then((rendered) => {
          const drawn = { bytes: Buffer.from(rendered.image), contentType: rendered.contentType };
          cache.set(key, drawn);
          return drawn;
        })
        .finally(() => rendering.delete(key));
      pending = { image, controller, askers: 0, isKept: false };
      rendering.set(key, pending);
    }
    const current = pending;
    if (!signal) {
      current.isKept = true;
      return current.image;
    }
    current.askers += 1;
    return new Promise<CachedImage>((resolve, reject) => {
      const leave = () => {
        current.askers -= 1;
        if (current.askers === 0 && !current.isKept) current.controller.abort(signal.reason);
        reject(signal.reason as Error);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      current.image.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
    });
  };

  return {
    isWidth: (width: number) => (PAGE_IMAGE_WIDTHS as readonly number[]).includes(width),
    render,
    /**
     * Draws ahead, one after the other (so one worker stays free for the pages asked for): the
     * first page at the widths phones (1170) and laptops (810) ask for, the second at a phone's,
     * then at a phone's the pages that hold fields (a party jumps there from the first page), at
     * most FIELD_PAGES_AHEAD of them. At upload (the fields come later), at sending, and again
     * when a party opens its link (after a restart the cache is empty); drawn pages are cache hits.
     * Resolves once the first page is drawn at a phone's width (or could not be).
     */
    async warm(contract: ContractRow): Promise<void> {
      const pages = parsePageSizes(contract.pageSizes).length;
      const fieldPages = [
        ...new Set((await ctx.repos.annotations.listInContract(contract.id)).map((row) => row.pdfPage)),
      ]
        .filter((page) => page > 2 && page <= pages)
        .sort((a, b) => a - b)
        .slice(0, FIELD_PAGES_AHEAD);
      const ahead: Array<[number, number]> = [
        [1, PAGE_IMAGE_WIDTHS[1]],
        ...(pages > 1 ? [[2, PAGE_IMAGE_WIDTHS[2]] as [number, number]] : []),
        ...fieldPages.map((page): [number, number] => [page, PAGE_IMAGE_WIDTHS[2]]),
      ];
      const first = render(contract, 1, PAGE_IMAGE_WIDTHS[2]);
      ahead
        .reduce<Promise<unknown>>(
          (previous, [page, width]) => previous.then(async () => render(contract, page, width)),
          first,
        )
        .catch((error: unknown) =>
          ctx.logger.warn({ err: error, contractId: contract.id }, 'could not draw the pages ahead'),
        );
      return first.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}

export type PageImages = ReturnType<typeof createPageImages>;

/** The text tags of a page that fields were made from: hidden from the parties as from the sealed PDF. */
async function coversOf(ctx: AppContext, contractId: number, page: number): Promise<TagCoverBox[]> {
  return tagCoversOf(await ctx.repos.annotations.listInContract(contractId))
    .filter((box) => box.page === page)
    .map(({ x, y, width, height }) => ({ x, y, width, height }));
}

const byContext = new WeakMap<AppContext, PageImages>();

/** The server's one page image cache. */
export function pageImagesOf(ctx: AppContext): PageImages {
  let images = byContext.get(ctx);
  if (!images) {
    images = createPageImages(ctx);
    byContext.set(ctx, images);
  }
  return images;
}
