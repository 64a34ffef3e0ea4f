import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import {
  MAX_FIELD_FILE_BYTES,
  ZSigningAcceptSchema,
  ZSigningCodeSchema,
  ZSigningRejectSchema,
} from '../../shared/api/signing';
import type { AppContext } from '../context/app-context';
import type { PartyRow } from '../db/repos/parties';
import { AppError, notFound } from '../core/errors';
import { unlessStorageFull } from '../core/storage-full';
import { fileResponseHeaders } from '../http/upload-headers';
import { parseOrThrow } from '../http/validate';
import { requestOrigin } from '../activity/log-activity';
import { acceptAsParty } from '../signing/accept-as-party';
import { decideLinkAccess, requireDocumentSight, requireIdentified, type LinkAccess } from '../signing/link-access';
import { sendPartyCode, startVerifiedSession, verifyPartyCode } from '../signing/party-code';
import { rejectAsParty } from '../signing/reject-as-party';
import { delegateParty } from '../signing/delegate-party';
import { ZPartyDelegationSchema } from '../../shared/api/parties';
import { isAllowedReturnUrl, readFrameOrigins } from '../settings/frame-origins';
import { signingState } from '../signing/signing-state';
import { checkSigningCsrf, limitLinkRate, partyFromLink, signingCsrfToken } from '../signing/party-from-link';
import { recordOpened } from '../signing/record-opened';
import { createPageHeaders, signingAnswerHeaders } from './signing-headers';
import { renderNotFoundHtml, renderSigningHtml } from './signing-html';
import { pageImagesOf } from '../signing/page-images';
import { createPartyDocuments } from '../signing/party-document';
import { pageImageRoutes } from './page-image-routes';
import { verifiedSessions } from './verified-session';
import { parseAcceptLanguage, pickLanguage } from '../../shared/browser-language';
import { attachedFileOf } from '../db/repos/attached-file';
import { brandRoutes } from './brand-routes';

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SignDesk</title></head><body><h1>The signing page is not built</h1><p>Run <code>npm run build:signing</code>.</p></body></html>';
/** An answer carries a drawn or uploaded mark (at most 1 MiB of image, base64) besides the fields. */
const ACCEPT_BODY_LIMIT = 2 * 1024 * 1024;
/** …and, for each ATTACHMENT field of the party, its file (at most 2 MiB, base64) with its name… */
const ACCEPT_FILE_ROOM = Math.ceil(MAX_FIELD_FILE_BYTES / 3) * 4 + 4 * 1024;
/** …for at most this many files: one answer is never more than about 30 MB, however many fields. */
const ACCEPT_MAX_FILES = 10;

/**
 * The party signing pages at /sign/<token>: the built page, its JSON state and answers, the
 * document, its page images, the attachments and the signed PDF. The token is the party's only
 * credential; answers also need the page's CSRF token. What a request may see is decided in
 * one place (decideLinkAccess): under EMAIL_CODE / SMS_CODE nothing of the document without a
 * verified browser session (a path-scoped cookie, a partitioned one in frames, or the page's own
 * header: verified-session.ts; renewed while in use), in every stage.
 */
export function signingPages(ctx: AppContext, signingDir: string | undefined): Router {
  const router = express.Router();
  const security = createPageHeaders(() => readFrameOrigins(ctx));
  const indexHtml = signingDir ? fs.readFileSync(path.join(signingDir, 'index.html'), 'utf8') : undefined;
  const notFoundHtml = (req: Request) =>
    renderNotFoundHtml(indexHtml, pickLanguage(parseAcceptLanguage(req.headers['accept-language']), 'en'));
  const json = express.json({ limit: '64kb' });
  const pageImages = pageImagesOf(ctx);
  const partyDocument = createPartyDocuments(ctx);
  router.use('/sign', signingAnswerHeaders);
  // Browsers ask for it on every page; an empty answer keeps the console clean.
  router.get(
    '/favicon.ico',
    (_req, res) => void res.status(204).setHeader('Cache-Control', 'public, max-age=86400').end(),
  );

  // The link as the request gave it: the database keeps only the token's hash.
  const linkBase = (req: Request) => `/sign/${String(req.params.token)}`;
  const sessions = verifiedSessions(ctx);
  /** The access decision for this request; a verified browser's session moves on as it is used. */
  const accessOf = async (req: Request, res: Response, party: PartyRow): Promise<LinkAccess> =>
    decideLinkAccess(ctx, party, sessions.read(req, res, party) !== undefined);
  const stateOf = async (req: Request, party: PartyRow, access: LinkAccess) =>
    signingState(ctx, party, access, linkBase(req), signingCsrfToken(ctx, party));
  const sendState = async (req: Request, res: Response, party: PartyRow, access: LinkAccess) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(await stateOf(req, party, access));
  };
  /** The link's party and access after a change: read again, so the answer shows the new state. */
  const sendFreshState = async (req: Request, res: Response, party: PartyRow, isVerified: boolean) => {
    const fresh = (await ctx.repos.parties.findById(party.id)) ?? party;
    await sendState(req, res, fresh, await decideLinkAccess(ctx, fresh, isVerified));
  };
  const sendFile = (res: Response, data: Buffer, contentType: string, name: string, disposition?: 'attachment') => {
    const headers = fileResponseHeaders(contentType, name);
    for (const [header, value] of Object.entries(headers)) res.setHeader(header, value);
    if (disposition)
      res.setHeader(
        'Content-Disposition',
        headers['Content-Disposition']?.replace(/^inline/, 'attachment') ?? 'attachment',
      );
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(data);
  };
  /** Every request on a link: its party (404 for any other token), counted against the link's rate. */
  const openLink = async (req: Request) => {
    const party = await partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    return party;
  };
  /** The contract of a link whose document this request may see (the code entered, not expired or withdrawn). */
  const requireSight = async (req: Request, res: Response, party: PartyRow) => {
    const access = await accessOf(req, res, party);
    requireDocumentSight(access);
    return access.contract;
  };

  if (signingDir) {
    const assets = expressStaticGzip(signingDir, {
      enableBrotli: true,
      orderPreference: ['br', 'gz'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', index: false },
    });
    router.use('/sign/assets', security, assets, (_req, res) => {
      res.status(404).type('text').send('Not found');
    });
  }

  router.use(brandRoutes(ctx));

  router.get('/sign/:token', security, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    let party: PartyRow;
    try {
      party = await openLink(req);
    } catch {
      res.status(404).setHeader('Vary', 'Accept-Language').type('html').send(notFoundHtml(req));
      return;
    }
    // Fetching the page is not opening it: mail scanners fetch every link in a message (GET or
    // HEAD, no script run). The page's own script reports the opening (POST …/opened, below).
    if (!indexHtml) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    const fresh = (await ctx.repos.parties.findById(party.id)) ?? party;
    const access = await accessOf(req, res, fresh);
    const state = await stateOf(req, fresh, access);
    if (state.contract.pageImages) void pageImages.warm(access.contract);
    const returnUrl =
      typeof req.query.return_url === 'string' && (await isAllowedReturnUrl(ctx, req.query.return_url))
        ? req.query.return_url
        : null;
    const language = pickLanguage(parseAcceptLanguage(req.headers['accept-language']), state.language);
    res.setHeader('Vary', 'Accept-Language');
    res.type('html').send(renderSigningHtml(indexHtml, { state, returnUrl }, language));
  });

  router.get('/sign/:token/state', async (req, res) => {
    const party = await openLink(req);
    await sendState(req, res, party, await accessOf(req, res, party));
  });

  router.get('/sign/:token/document.pdf', async (req, res) => {
    const party = await openLink(req);
    const contract = await requireSight(req, res, party);
    // The text tags fields were made from are hidden here as on the page images.
    const document = await partyDocument(contract);
    if (!document) throw notFound('document');
    sendFile(res, document, 'application/pdf', `${contract.name || 'document'}.pdf`);
  });

  router.get('/sign/:token/signed.pdf', async (req, res) => {
    const party = await openLink(req);
    const contract = await requireSight(req, res, party);
    const file = contract.signedFileId ? await ctx.repos.files.getFile(contract.signedFileId) : undefined;
    if (!file) throw new AppError('contract-state', 'The signed document is ready once every party has signed.');
    sendFile(res, file.data, 'application/pdf', `${contract.name || 'document'} (signed).pdf`, 'attachment');
  });

  router.get('/sign/:token/attachments/:attachmentId', async (req, res) => {
    const party = await openLink(req);
    const contract = await requireSight(req, res, party);
    const attachment = (await ctx.repos.attachments.listInContract(contract.id)).find(
      (row) => String(row.id) === req.params.attachmentId,
    );
    const file = attachment ? await ctx.repos.files.getFile(attachment.fileId) : undefined;
    if (!attachment || !file) throw notFound('attachment');
    sendFile(res, file.data, attachment.contentType, attachment.name);
  });

  // The file a party attached to one of its own ATTACHMENT fields, once signed: its own, no other party's.
  router.get('/sign/:token/fields/:annotationId/file', async (req, res) => {
    const party = await openLink(req);
    await requireSight(req, res, party);
    const annotation = (await ctx.repos.annotations.listOfParty(party.id)).find(
      (row) => String(row.id) === req.params.annotationId,
    );
    const attached = await attachedFileOf(ctx.repos, annotation);
    if (!attached) throw notFound('attached file');
    sendFile(res, attached.file.data, attached.file.contentType, attached.name, 'attachment');
  });

  /**
   * The page's script, once it runs in the party's browser, says the link was opened: only then
   * is it recorded (party.opened, email_status opened/clicked). The CSRF token is the page's, so
   * a request the page did not make (a scanner's fetch of the link, a cross-site form) records
   * nothing. Opening is a read: on a full disk the page still opens, and the next visit records it.
   */
  router.post('/sign/:token/opened', async (req, res) => {
    const party = await openLink(req);
    checkSigningCsrf(ctx, req, party);
    await unlessStorageFull(
      async () => recordOpened(ctx, party, requestOrigin(req)),
      () => ctx.logger.debug({ partyId: party.id }, 'a signing link was opened but the disk is full: not recorded'),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.status(204).end();
  });

  router.post('/sign/:token/code', async (req, res) => {
    const party = await openLink(req);
    checkSigningCsrf(ctx, req, party);
    const access = await accessOf(req, res, party);
    if (access.stage !== 'needs-code') throw new AppError('contract-state', 'No code is needed now.');
    await sendPartyCode(ctx, access.contract, party, requestOrigin(req));
    await sendFreshState(req, res, party, false);
  });

  router.post('/sign/:token/code/verify', json, async (req, res) => {
    const party = await openLink(req);
    checkSigningCsrf(ctx, req, party);
    const { code } = parseOrThrow(ZSigningCodeSchema, req.body ?? {});
    if (!(await verifyPartyCode(ctx, party, code, requestOrigin(req)))) {
      throw new AppError('validation-failed', 'That code is not right, or it has expired.', {
        validationErrors: ['code: is not right or has expired'],
      });
    }
    sessions.start(req, res, party, startVerifiedSession(ctx.now()));
    await sendFreshState(req, res, party, true);
  });

  /**
   * The answer's body is read only for a link's party (else 404 before a byte is read), with room
   * for a file per ATTACHMENT field it has.
   */
  const acceptBody: express.RequestHandler = async (req, res, next) => {
    const party = await openLink(req);
    res.locals.party = party;
    const files = (await ctx.repos.annotations.listOfParty(party.id)).filter(
      (field) => field.type === 'ATTACHMENT',
    ).length;
    express.json({ limit: ACCEPT_BODY_LIMIT + Math.min(files, ACCEPT_MAX_FILES) * ACCEPT_FILE_ROOM })(req, res, next);
  };

  router.post('/sign/:token/accept', acceptBody, async (req, res) => {
    const party = res.locals.party as PartyRow;
    checkSigningCsrf(ctx, req, party);
    const input = parseOrThrow(ZSigningAcceptSchema, req.body ?? {});
    const access = await accessOf(req, res, party);
    requireIdentified(access);
    await acceptAsParty(ctx, party, input, requestOrigin(req), access.contract.requireAuth);
    await sendFreshState(req, res, party, access.isIdentified);
  });

  router.post('/sign/:token/delegate', json, async (req, res) => {
    const party = await openLink(req);
    checkSigningCsrf(ctx, req, party);
    const input = parseOrThrow(ZPartyDelegationSchema, req.body ?? {});
    const access = await accessOf(req, res, party);
    requireIdentified(access);
    const delegate = await delegateParty(ctx, party.id, input, requestOrigin(req));
    // The link is closed now: the page says to whom the turn went, and asks for nothing more.
    res.setHeader('Cache-Control', 'no-store');
    res.json({ name: delegate.name });
  });

  router.post('/sign/:token/reject', json, async (req, res) => {
    const party = await openLink(req);
    checkSigningCsrf(ctx, req, party);
    const { cause } = parseOrThrow(ZSigningRejectSchema, req.body ?? {});
    const access = await accessOf(req, res, party);
    requireIdentified(access);
    await rejectAsParty(ctx, party.id, cause, requestOrigin(req), access.contract.requireAuth);
    await sendFreshState(req, res, party, access.isIdentified);
  });

  // Page images: the document itself, so behind the same decision (the code, expiry, withdrawal).
  router.use(pageImageRoutes(ctx, pageImages, requireSight));

  router.get('/sign/{*rest}', security, (req, res) => void res.status(404).type('html').send(notFoundHtml(req)));
  return router;
}
