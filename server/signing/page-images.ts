import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { PAGE_IMAGE_WIDTHS } from '../../shared/api/signing';
import { parsePageSizes } from '../contracts/contract-fields';
import { parseTagBox } from '../contracts/tag-fields';
import type { TagCoverBox } from '../pdf/tag-cover';

type CachedImage = { bytes: Buffer; contentType: string };

/** Rendered pages kept in memory at most (a 50-page contract at two phone widths is ~5 MiB). */
const CACHE_BYTES = 64 * 1024 * 1024;

/**
 * The pages of contracts as images for the signing page: rendered on demand in the PDF sandbox
 * (pdf.js never runs in the party's browser), one render per page and width however many ask
 * at once, and kept in memory by recent use. The text tags fields were made from are painted
 * over, as in the sealed PDF. Only the widths of PAGE_IMAGE_WIDTHS exist.
 */
export function createPageImages(ctx: AppContext) {
  const cache = new Map<string, CachedImage>();
  const rendering = new Map<string, Promise<CachedImage>>();
  let cachedBytes = 0;

  const remember = (key: string, image: CachedImage) => {
    cache.set(key, image);
    cachedBytes += image.bytes.length;
    for (const [oldest, entry] of cache) {
      if (cachedBytes <= CACHE_BYTES) break;
      cache.delete(oldest);
      cachedBytes -= entry.bytes.length;
    }
  };

  const render = (contract: ContractRow, page: number, width: number): Promise<CachedImage> => {
    const sha256 = ctx.repos.files.getSha256(contract.originalFileId);
    if (!sha256) return Promise.reject(new Error(`contract ${contract.id} has lost its PDF`));
    const covers = coversOf(ctx, contract.id, page);
    const key = `${sha256}:${page}:${width}:${JSON.stringify(covers)}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit);
      return Promise.resolve(hit);
    }
    let pending = rendering.get(key);
    if (!pending) {
      const bytes = ctx.repos.files.getFile(contract.originalFileId)?.data ?? new Uint8Array();
      pending = ctx.pdf
        .run('render-page', { key: sha256, bytes, page, width, covers })
        .then((rendered) => {
          const image = { bytes: Buffer.from(rendered.image), contentType: rendered.contentType };
          remember(key, image);
          return image;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  };

  return {
    isWidth: (width: number) => (PAGE_IMAGE_WIDTHS as readonly number[]).includes(width),
    render,
    /**
     * Draws the first page ahead (and the second, which a phone asks for at once), at the widths
     * phones (1170) and laptops (810) ask for: when a
     * contract is sent, and again when a party opens its link (after a restart the cache is
     * empty). One width after the other, so that one worker stays free for the pages asked for.
     */
    warm(contract: ContractRow): void {
      render(contract, 1, PAGE_IMAGE_WIDTHS[2])
        .then(() => render(contract, 1, PAGE_IMAGE_WIDTHS[1]))
        .then(() =>
          parsePageSizes(contract.pageSizes).length > 1 ? render(contract, 2, PAGE_IMAGE_WIDTHS[2]) : undefined,
        )
        .catch((error: unknown) =>
          ctx.logger.warn({ err: error, contractId: contract.id }, 'could not draw the first page'),
        );
    },
  };
}

export type PageImages = ReturnType<typeof createPageImages>;

/** The text tags of a page that fields were made from: hidden from the parties as from the sealed PDF. */
function coversOf(ctx: AppContext, contractId: number, page: number): TagCoverBox[] {
  return ctx.repos.annotations
    .listInContract(contractId)
    .flatMap((annotation) => parseTagBox(annotation.tagBox) ?? [])
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
