import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { tagCoversOf } from '../contracts/tag-fields';

/** What the cache of covered documents may hold, at most. */
const CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The document a party downloads before signing (`/sign/<token>/document.pdf`): the original
 * with the text tags that fields were made from painted over (pdf/cover-tags.ts, in the PDF
 * sandbox, in the contract's own lane), as the page images and the sealed PDF show it. The
 * newest few are kept, by the original's hash and the covers, so a party downloading again
 * costs no worker time.
 */
export function createPartyDocuments(ctx: AppContext) {
  const cache = new Map<string, Buffer>();
  let cachedBytes = 0;

  return async (contract: ContractRow): Promise<Buffer | undefined> => {
    const file = ctx.repos.files.getFile(contract.originalFileId);
    if (!file) return undefined;
    const covers = tagCoversOf(ctx.repos.annotations.listInContract(contract.id));
    if (covers.length === 0) return file.data;
    const key = `${ctx.repos.files.getSha256(contract.originalFileId)}:${JSON.stringify(covers)}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const painted = await ctx.pdf.run('cover-tags', { bytes: file.data, covers }, { source: `pages:${contract.id}` });
    const covered = Buffer.from(painted.buffer, painted.byteOffset, painted.byteLength);
    cache.set(key, covered);
    cachedBytes += covered.length;
    for (const [oldest, bytes] of cache) {
      if (cachedBytes <= CACHE_BYTES) break;
      cache.delete(oldest);
      cachedBytes -= bytes.length;
    }
    return covered;
  };
}

export type PartyDocuments = ReturnType<typeof createPartyDocuments>;
