import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { ZSigningAcceptSchema, ZSigningCodeSchema, ZSigningRejectSchema } from '../../shared/api/signing';
import type { AppContext } from '../core/context';
import type { PartyRow } from '../db/repos/parties';
import { AppError, notFound } from '../core/errors';
import { fileResponseHeaders } from '../http/upload-headers';
import { parseOrThrow } from '../http/validate';
import { requestOrigin } from '../activity/log-activity';
import { acceptAsParty } from './accept-as-party';
import { isVerifiedCookie, sendPartyCode, verifiedCookieValue, verifyPartyCode, VERIFIED_FOR_MS } from './party-code';
import { rejectAsParty } from './reject-as-party';
import { isAllowedReturnUrl, readFrameOrigins } from '../settings/frame-origins';
import { canSeeDocument, signingState, stageOf } from './signing-state';
import { checkSigningCsrf, limitLinkRate, partyFromLink, signingCsrfToken, VERIFIED_COOKIE } from './party-from-link';
import { recordOpened } from './record-opened';
import { readCookie } from '../http/session-cookie';
import { createPageHeaders, signingAnswerHeaders } from './signing-headers';
import { renderNotFoundHtml, renderSigningHtml } from './signing-html';
import { pageImagesOf } from './page-images';
import { pageImageRoutes } from './page-image-routes';

const NOT_BUILT = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SignDesk</title></head><body><h1>The signing page is not built</h1><p>Run <code>npm run build:signing</code>.</p></body></html>';
/** An answer carries a drawn or uploaded mark (at most 1 MiB of image, base64) besides the fields. */
const ACCEPT_BODY_LIMIT = '2mb';

/**
 * The party signing pages at /sign/<token>: the built page, its JSON state and answers, the
 * document, the attachments and the signed PDF. The token is the party's only credential;
 * answers also need the page's CSRF token, and EMAIL_CODE / SMS_CODE a verified cookie.
 */
export function signingPages(ctx: AppContext, signingDir: string | undefined): Router {
  const router = express.Router();
  const security = createPageHeaders(() => readFrameOrigins(ctx));
  const indexHtml = signingDir ? fs.readFileSync(path.join(signingDir, 'index.html'), 'utf8') : undefined;
  const notFoundHtml = renderNotFoundHtml(indexHtml);
  const json = express.json({ limit: '64kb' });
  const pageImages = pageImagesOf(ctx);
  router.use('/sign', signingAnswerHeaders);
  // Browsers ask for it on every page; an empty answer keeps the console clean.
  router.get('/favicon.ico', (_req, res) => void res.status(204).setHeader('Cache-Control', 'public, max-age=86400').end());

  const isVerified = (req: Request, party: PartyRow) => isVerifiedCookie(ctx, party, readCookie(req, VERIFIED_COOKIE));
  const stateOf = (req: Request, party: PartyRow) => signingState(ctx, party, isVerified(req, party), signingCsrfToken(ctx, party));
  const freshParty = (party: PartyRow) => ctx.repos.parties.findById(party.id) ?? party;
  const sendState = (req: Request, res: Response, party: PartyRow) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json(stateOf(req, freshParty(party)));
  };
  /** The document and its files are for a party that may see them: not before the code, not of a draft. */
  const requireSight = (req: Request, party: PartyRow) => {
    const contract = ctx.repos.contracts.findById(party.contractId);
    if (!contract) throw notFound('contract');
    const stage = stageOf(ctx, contract, party, ctx.repos.parties.listInContract(contract.id), isVerified(req, party));
    if (stage === 'expired') throw new AppError('contract-state', 'The signing link has expired.');
    if (stage === 'withdrawn') throw new AppError('contract-state', 'The sender withdrew this document.');
    if (!canSeeDocument(stage)) throw new AppError('forbidden', 'Open the document from the signing page first.');
    return contract;
  };
  const authenticationOf = (party: PartyRow) => ctx.repos.contracts.findById(party.contractId)?.requireAuth ?? 'NONE';

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

  router.get('/sign/:token', security, (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    let party: PartyRow;
    try {
      party = partyFromLink(ctx, req);
      limitLinkRate(ctx, party);
    } catch {
      res.status(404).type('html').send(notFoundHtml);
      return;
    }
    recordOpened(ctx, party, requestOrigin(req));
    if (!indexHtml) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    const state = stateOf(req, freshParty(party));
    const contract = ctx.repos.contracts.findById(party.contractId);
    if (state.contract.pageImages && contract) pageImages.warm(contract);
    const returnUrl = typeof req.query.return_url === 'string' && isAllowedReturnUrl(ctx, req.query.return_url) ? req.query.return_url : null;
    res.type('html').send(renderSigningHtml(indexHtml, { state, returnUrl }));
  });

  router.get('/sign/:token/state', (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    sendState(req, res, party);
  });

  router.get('/sign/:token/document.pdf', (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    const contract = requireSight(req, party);
    const file = ctx.repos.files.getFile(contract.originalFileId);
    if (!file) throw notFound('document');
    for (const [name, value] of Object.entries(fileResponseHeaders('application/pdf', `${contract.name || 'document'}.pdf`))) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(file.data);
  });

  router.get('/sign/:token/signed.pdf', (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    const contract = ctx.repos.contracts.findById(party.contractId);
    const file = contract?.signedFileId ? ctx.repos.files.getFile(contract.signedFileId) : undefined;
    if (!contract || !file) throw new AppError('contract-state', 'The signed document is ready once every party has signed.');
    const headers = fileResponseHeaders('application/pdf', `${contract.name || 'document'} (signed).pdf`);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.setHeader('Content-Disposition', headers['Content-Disposition']?.replace(/^inline/, 'attachment') ?? 'attachment');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(file.data);
  });

  router.get('/sign/:token/attachments/:attachmentId', (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    const contract = requireSight(req, party);
    const attachment = ctx.repos.attachments.listInContract(contract.id).find((row) => String(row.id) === req.params.attachmentId);
    const file = attachment ? ctx.repos.files.getFile(attachment.fileId) : undefined;
    if (!attachment || !file) throw notFound('attachment');
    for (const [name, value] of Object.entries(fileResponseHeaders(attachment.contentType, attachment.name))) res.setHeader(name, value);
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(file.data);
  });

  router.post('/sign/:token/code', (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    checkSigningCsrf(ctx, req, party);
    const contract = ctx.repos.contracts.findById(party.contractId);
    if (!contract) throw notFound('contract');
    if (stageOf(ctx, contract, party, ctx.repos.parties.listInContract(contract.id), isVerified(req, party)) !== 'needs-code') {
      throw new AppError('contract-state', 'No code is needed now.');
    }
    sendPartyCode(ctx, contract, party, requestOrigin(req));
    sendState(req, res, party);
  });

  router.post('/sign/:token/code/verify', json, (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    checkSigningCsrf(ctx, req, party);
    const { code } = parseOrThrow(ZSigningCodeSchema, req.body ?? {});
    if (!verifyPartyCode(ctx, party, code, requestOrigin(req))) {
      throw new AppError('validation-failed', 'That code is not right, or it has expired.', { validationErrors: ['code: is not right or has expired'] });
    }
    const expiresAt = ctx.now() + VERIFIED_FOR_MS;
    res.cookie(VERIFIED_COOKIE, verifiedCookieValue(ctx, party, expiresAt), {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure || ctx.baseUrl().startsWith('https:'),
      path: `/sign/${party.signToken}`,
      expires: new Date(expiresAt),
    });
    res.setHeader('Cache-Control', 'no-store');
    res.json(signingState(ctx, freshParty(party), true, signingCsrfToken(ctx, party)));
  });

  router.post('/sign/:token/accept', express.json({ limit: ACCEPT_BODY_LIMIT }), async (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    checkSigningCsrf(ctx, req, party);
    const input = parseOrThrow(ZSigningAcceptSchema, req.body ?? {});
    if (authenticationOf(party) !== 'NONE' && !isVerified(req, party)) throw new AppError('forbidden', 'Enter your code first.');
    await acceptAsParty(ctx, party, input, requestOrigin(req), authenticationOf(party));
    sendState(req, res, party);
  });

  router.post('/sign/:token/reject', json, (req, res) => {
    const party = partyFromLink(ctx, req);
    limitLinkRate(ctx, party);
    checkSigningCsrf(ctx, req, party);
    const { cause } = parseOrThrow(ZSigningRejectSchema, req.body ?? {});
    if (authenticationOf(party) !== 'NONE' && !isVerified(req, party)) throw new AppError('forbidden', 'Enter your code first.');
    rejectAsParty(ctx, party.id, cause, requestOrigin(req), authenticationOf(party));
    sendState(req, res, party);
  });

  router.use(pageImageRoutes(ctx, pageImages, requireSight));

  router.get('/sign/{*rest}', security, (_req, res) => void res.status(404).type('html').send(notFoundHtml));
  return router;
}
