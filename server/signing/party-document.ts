import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import { tagCoversOf } from '../contracts/tag-fields';
import { createByteCache } from '../core/byte-cache';

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
  const cache = createByteCache<Buffer>(CACHE_BYTES, (bytes) => bytes.length);

  return async (contract: ContractRow): Promise<Buffer | undefined> => {
    const covers = tagCoversOf(await ctx.repos.annotations.listInContract(contract.id));
    if (covers.length === 0) return (await ctx.repos.files.readFile(contract.originalFileId))?.data;
    const sha256 = await ctx.repos.files.getSha256(contract.originalFileId);
    if (!sha256) return undefined;
    const key = `${sha256}:${JSON.stringify(covers)}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const file = await ctx.repos.files.readFile(contract.originalFileId);
    if (!file) return undefined;
    const painted = await ctx.pdf.run('cover-tags', { bytes: file.data, covers }, { source: `pages:${contract.id}` });
    const covered = Buffer.from(painted.buffer, painted.byteOffset, painted.byteLength);
    cache.set(key, covered);
    return covered;
  };
}

export type PartyDocuments = ReturnType<typeof createPartyDocuments>;
