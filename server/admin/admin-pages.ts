import fs from 'node:fs';
import path from 'node:path';
import express, { type Router } from 'express';
import type { AppContext } from '../context/app-context';
import { ACTIVE_ADMINISTRATOR } from '../policies/actors';
import { htmlSecurityHeaders } from '../http/security-headers';
import { setSessionCookie } from '../http/session-cookie';
import { requestOrigin } from '../activity/log-activity';
import { startSession } from '../sessions/start-session';

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SignDesk</title></head>
<body><h1>The admin UI is not built</h1><p>Run <code>npm run build:renderer</code> and reload this page.</p></body></html>`;

/**
 * The admin UI at /admin: the built files, index.html for every other path under /admin (the
 * UI routes in the browser), and the desktop shell's one-time sign-in links. Strict CSP: only
 * our own scripts, styles and connections.
 */
export function adminPages(ctx: AppContext, rendererDir: string | undefined): Router {
  const router = express.Router();
  const security = htmlSecurityHeaders();
  const indexHtml = rendererDir ? fs.readFileSync(path.join(rendererDir, 'index.html'), 'utf8') : undefined;

  router.get('/admin', (req, res, next) => {
    // Express matches /admin/ here too; only the bare path moves to the UI's base.
    if (req.path !== '/admin') return next();
    const query = req.originalUrl.split('?')[1];
    res.redirect(301, `/admin/${query ? `?${query}` : ''}`);
  });

  // The Electron shell opens createAdminLoginUrl(): a one-time link that signs the first active administrator in.
  router.get('/admin/sign-in-link/:token', security, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const isLive = ctx.admin.loginLinks.redeem(String(req.params.token), ctx.now());
    const admin = isLive ? await ctx.repos.users.firstMatching(ACTIVE_ADMINISTRATOR) : undefined;
    if (!admin) {
      res.redirect(303, isLive ? '/admin/' : '/admin/?signin=link-expired');
      return;
    }
    const { secret, row } = await startSession(ctx, admin.id, requestOrigin(req));
    setSessionCookie(req, res, secret, row.expiresAt);
    res.redirect(303, '/admin/');
  });

  if (rendererDir) {
    // Hashed file names: cached for good.
    router.use(
      '/admin/assets',
      security,
      express.static(path.join(rendererDir, 'assets'), { immutable: true, maxAge: '1y', index: false }),
      (_req, res) => void res.status(404).type('text').send('Not found'),
    );
    router.use('/admin', security, express.static(rendererDir, { index: false, maxAge: '1h' }));
  }
  router.get('/admin/{*rest}', security, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!indexHtml) {
      res.status(503).type('html').send(NOT_BUILT);
      return;
    }
    res.type('html').send(indexHtml);
  });
  return router;
}
