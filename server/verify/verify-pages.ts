import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Router } from 'express';
import { MAX_VERIFY_BYTES } from '../../shared/api/verify';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';
import { verifyPdf } from '../evidence/verify-pdf';
import { htmlSecurityHeaders } from '../http/security-headers';
import { requestOrigin } from '../activity/log-activity';
import { PdfReadError } from '../pdf/pdf-read-error';
import { parseAcceptLanguage, pickLanguage } from '../../shared/browser-language';
import { CATALOGUES, translatorFor } from '../../shared/i18n/catalogues';
import { isLanguage } from '../../shared/i18n/languages';
import type { TVerifyBootstrap } from '../../shared/verify-page';
import { accentStylePath, logoPath, readBrand } from '../brand/read-brand';
import { escapeScriptJson, escapeText, localizeHtml } from '../http/html-text';

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SignDesk</title></head><body><h1>The verify page is not built</h1><p>Run <code>npm run build:signing</code>.</p></body></html>';
/** Checks per client address and minute: reading a PDF costs a worker for a moment. */
const CHECKS_PER_MINUTE = 20;

/**
 * The public verify page at /verify: anyone drops a PDF and learns whether this appliance sealed
 * it, whether it changed since, which contract it is (only for the very PDF sealed here) and its
 * timestamps. The PDF is read in the PDF sandbox and never stored; the check is rate limited per
 * client address.
 */
export function verifyPages(ctx: AppContext, signingDir: string | undefined): Router {
  const router = express.Router();
  const security = htmlSecurityHeaders();
  const verifyHtml =
    signingDir && fs.existsSync(path.join(signingDir, 'verify.html'))
      ? fs.readFileSync(path.join(signingDir, 'verify.html'), 'utf8')
      : undefined;
  const pdfBody = express.raw({ type: () => true, limit: MAX_VERIFY_BYTES });

  // The page in the language asked for (?lang=de), else the browser's, under the office's name, logo and accent.
  router.get('/verify', security, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept-Language');
    if (!verifyHtml) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    const asked = req.query.lang;
    const language = isLanguage(asked)
      ? asked
      : pickLanguage(parseAcceptLanguage(req.headers['accept-language']), 'en');
    const brand = await readBrand(ctx);
    const bootstrap: TVerifyBootstrap = {
      texts: { language, messages: CATALOGUES[language].verify },
      brand: {
        officeName: brand.officeName,
        logo: brand.logo ? { url: logoPath(brand.logo), width: brand.logo.width, height: brand.logo.height } : null,
      },
    };
    const t = translatorFor(language, 'verify');
    const html = localizeHtml(verifyHtml, language, brand.accentColor ? accentStylePath(brand.accentColor) : null)
      .replace(
        /<title>.*?<\/title>/s,
        () => `<title>${escapeText(`${t('title')} · ${brand.officeName || 'SignDesk'}`)}</title>`,
      )
      .replace(/<noscript>.*?<\/noscript>/s, () => `<noscript>${escapeText(t('noscript'))}</noscript>`)
      .replace(
        '</head>',
        () =>
          `<script id="verify-bootstrap" type="application/json">${escapeScriptJson(JSON.stringify(bootstrap))}</script></head>`,
      );
    res.type('html').send(html);
  });

  router.post(
    '/verify/check',
    (req, res, next) => {
      limitChecks(ctx, req);
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (type !== 'application/pdf' && type !== 'application/octet-stream') {
        throw new AppError(
          'unsupported-media-type',
          'Send the PDF itself as the body (Content-Type: application/pdf).',
        );
      }
      next();
    },
    pdfBody,
    async (req, res) => {
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (bytes.length === 0)
        throw new AppError('validation-failed', 'Send a PDF.', { validationErrors: ['body: is empty'] });
      let result;
      try {
        result = await verifyPdf(ctx, bytes, `verify:${requestOrigin(req).ipAddress}`);
      } catch (error) {
        if (error instanceof PdfReadError) throw new AppError('invalid-pdf', error.message);
        throw error;
      }
      ctx.logger.info(
        { verdict: result.verdict, sha256: result.sha256, from: requestOrigin(req).ipAddress },
        'verify: a PDF was checked',
      );
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.json(result);
    },
  );
  return router;
}

function limitChecks(ctx: AppContext, req: Request): void {
  const decision = ctx.rateLimiter.take(`verify:${requestOrigin(req).ipAddress}`, CHECKS_PER_MINUTE, ctx.now());
  if (!decision.isAllowed) {
    const wait = Math.max(1, Math.ceil(((decision.resetAt ?? ctx.now()) - ctx.now()) / 1000));
    throw new AppError('rate-limited', `Too many checks from your address; try again in ${wait} s.`, {
      headers: { 'Retry-After': String(wait) },
    });
  }
}
