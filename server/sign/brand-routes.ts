import express, { type Router } from 'express';
import { LANGUAGES, type Language } from '../../shared/api/enums';
import { ACCENT_PATTERN, softAccent } from '../../shared/brand';
import { CATALOGUES } from '../../shared/i18n/catalogues';
import type { AppContext } from '../context/app-context';
import { readBrand } from '../brand/read-brand';

/** The namespaces a page may fetch: the signing page's and the verify page's, nothing the server keeps for itself. */
const PAGE_NAMESPACES = ['signing', 'verify'] as const;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * What the party pages load besides their bundle, on the party surface (/sign/...):
 * - the office's logo, `/sign/brand/logo-<first 16 hex of its SHA-256>.png`: the PNG SignDesk
 *   made from the upload (never the upload), cached for good under its content's name;
 * - the office's accent as a style sheet, `/sign/brand/accent-<rrggbb>.css` (the pages' CSP
 *   allows no inline style), made from the name alone, so it needs no lookup;
 * - a page's texts in a language, `/sign/i18n/<language>/<signing|verify>.json`, when the party
 *   switches to a language the page was not served in.
 */
export function brandRoutes(ctx: AppContext): Router {
  const router = express.Router();
  router.get('/sign/brand/:file', async (req, res) => {
    const file = String(req.params.file);
    const accent = /^accent-([0-9a-f]{6})\.css$/.exec(file);
    if (accent && ACCENT_PATTERN.test(`#${accent[1]}`)) {
      const color = `#${accent[1]}`;
      res.setHeader('Cache-Control', IMMUTABLE);
      res.type('text/css').send(`:root{--accent:${color};--accent-soft:${softAccent(color)};}\n`);
      return;
    }
    const logo = /^logo-([0-9a-f]{16})\.png$/.exec(file);
    const brand = logo ? await readBrand(ctx) : undefined;
    if (!logo || !brand?.logo || !brand.logo.sha256.startsWith(logo[1]!)) {
      res.status(404).setHeader('Cache-Control', 'no-store').type('text').send('Not found');
      return;
    }
    res.setHeader('Cache-Control', IMMUTABLE);
    res.setHeader('Content-Security-Policy', "default-src 'none'");
    res.type('image/png').send(brand.logo.png);
  });
  router.get('/sign/i18n/:language/:namespace.json', (req, res) => {
    const language = String(req.params.language) as Language;
    const namespace = String(req.params.namespace) as (typeof PAGE_NAMESPACES)[number];
    if (!LANGUAGES.includes(language) || !PAGE_NAMESPACES.includes(namespace)) {
      res.status(404).setHeader('Cache-Control', 'no-store').type('text').send('Not found');
      return;
    }
    // Revalidated by ETag: the texts change with a new version of SignDesk only.
    res.setHeader('Cache-Control', 'no-cache');
    res.json(CATALOGUES[language][namespace]);
  });
  return router;
}
