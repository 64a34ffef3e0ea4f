import express, { type Request, type Response, type Router } from 'express';
import type { AppContext } from '../context/app-context';
import type { ContractRow } from '../db/repos/contracts';
import type { PartyRow } from '../db/repos/parties';
import { AppError, notFound } from '../core/errors';
import { parsePageSizes } from '../contracts/contract-fields';
import { documentVersion } from '../signing/signing-state';
import type { PageImages } from '../signing/page-images';
import { partyFromLink } from '../signing/party-from-link';

/** Page images are cheap once drawn and a long document has many: their own, larger allowance per link. */
const PAGE_REQUESTS_PER_MINUTE = 600;
const FILE = /^(\d{1,4})-(\d{3,4})\.webp$/;

/**
 * GET /sign/<token>/pages/<version>/<page>-<width>.webp: one page of the party's document as an
 * image, for whoever may see the document itself. The version is the document's hash, so the
 * browser keeps each image for good.
 */
export function pageImageRoutes(
  ctx: AppContext,
  images: PageImages,
  requireSight: (req: Request, res: Response, party: PartyRow) => Promise<ContractRow>,
): Router {
  const router = express.Router();
  router.get('/sign/:token/pages/:version/:file', async (req, res) => {
    const party = await partyFromLink(ctx, req);
    const decision = ctx.rateLimiter.take(`sign-pages:${party.id}`, PAGE_REQUESTS_PER_MINUTE, ctx.now());
    if (!decision.isAllowed) {
      const wait = Math.max(1, Math.ceil(((decision.resetAt ?? ctx.now()) - ctx.now()) / 1000));
      throw new AppError('rate-limited', `Too many pages asked for on this link; try again in ${wait} s.`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    const contract = await requireSight(req, res, party);
    const match = FILE.exec(String(req.params.file));
    const page = Number(match?.[1]);
    const width = Number(match?.[2]);
    const pages = parsePageSizes(contract.pageSizes).length;
    const sha256 = await ctx.repos.files.getSha256(contract.originalFileId);
    if (
      !match ||
      page < 1 ||
      page > pages ||
      !images.isWidth(width) ||
      !sha256 ||
      documentVersion(sha256) !== req.params.version
    ) {
      throw notFound('page image');
    }
    // A browser that gives the image up (the party scrolled on, or answered) closes the request:
    // the page is then not drawn for it (page-images.ts).
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort(new Error('the browser gave the page up'));
    });
    const image = await images.render(contract, page, width, gone.signal).catch((error: unknown) => {
      if (gone.signal.aborted) return undefined;
      ctx.logger.warn({ err: error, contractId: contract.id, page }, 'a page could not be drawn');
      throw new AppError('service-unavailable', 'This page could not be drawn; download the document to read it.');
    });
    if (!image) return;
    res.setHeader('Content-Type', image.contentType);
    res.setHeader('Content-Length', String(image.bytes.length));
    res.setHeader('Cache-Control', 'private, max-age=31536000, immutable');
    res.end(image.bytes);
  });
  return router;
}
