import express, { type Express, type RequestHandler, type Router } from 'express';
import { STYLE } from './apidoc/html';
import { renderIndex, renderPostingData } from './apidoc/render-apidoc';
import { renderEmbedding } from './apidoc/embedding';
import type { AppContext } from './context';
import { resolveActingUser } from './http/acting-user';
import { requireApiVersion } from './http/api-version';
import { AppError } from './core/errors';
import { authenticate, type PrincipalResolver } from './http/authenticate';
import { buildOpenApiDocument } from './http/openapi';
import { parseStructuredBody } from './http/parse-body';
import { problemHandler } from './http/problem';
import { rateLimit } from './http/rate-limit';
import { runInOrder } from './http/run-in-order';
import { mountRoutes, publicRouteKeys, type AnyRoute } from './http/route';
import { htmlSecurityHeaders } from './http/security-headers';
import { APP_VERSION } from './version';

export type AppParts = {
  /** Every API route, in the order they are matched; the OpenAPI document is made from this list. */
  routes: readonly AnyRoute[];
  /** Other ways to authenticate than an API token (the admin UI's session). */
  principalResolvers?: readonly PrincipalResolver[];
  /** Routers of HTML pages (signing pages, admin UI), mounted before the API. */
  pages?: readonly Router[];
};

const apiHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  next();
};

export function createApp(ctx: AppContext, parts: AppParts): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // Public documents: the OpenAPI contract and the human-readable docs it links to.
  let openApiJson: string | undefined;
  app.get('/api/openapi.json', apiHeaders, (_req, res) => {
    openApiJson ??= JSON.stringify(buildOpenApiDocument(parts.routes, ctx.baseUrl(), APP_VERSION));
    res.type('application/json').send(openApiJson);
  });
  app.get(['/apidoc', '/apidoc/v1'], (req, res, next) => {
    if (req.originalUrl.split('?')[0] === '/apidoc/v1/') return next();
    res.redirect(301, '/apidoc/v1/');
  });
  const apidoc = express.Router({ strict: true });
  apidoc.get('/style.css', (_req, res) => void res.type('text/css').send(STYLE));
  apidoc.get('/posting_data', (_req, res) => void res.type('html').send(renderPostingData()));
  apidoc.get('/embedding', (_req, res) => void res.type('html').send(renderEmbedding()));
  apidoc.get('/', (_req, res) => void res.type('html').send(renderIndex(parts.routes)));
  app.use('/apidoc/v1', htmlSecurityHeaders(), apidoc);

  // HTML pages that bring their own authentication (party signing pages, the admin UI).
  for (const router of parts.pages ?? []) app.use(router);

  // The API's shared conventions, in order: who is calling, how often, which version,
  // the body, and which user the request acts as. They run as one layer (each is still its
  // own middleware, in this order). The one exception: signing in and the first-run setup
  // (access 'public') skip who is calling, as nobody is yet; they keep the version rule, which
  // also keeps other sites' plain form posts out.
  const publicKeys = publicRouteKeys(parts.routes);
  const unlessPublic =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) => {
      if (publicKeys.has(`${req.method} ${req.originalUrl.split('?')[0]}`)) return next();
      return handler(req, res, next);
    };
  app.use(
    '/api',
    runInOrder([
      apiHeaders,
      unlessPublic(authenticate(ctx, parts.principalResolvers)),
      rateLimit(ctx),
      requireApiVersion(),
      parseStructuredBody(),
      unlessPublic(resolveActingUser(ctx)),
    ]),
  );
  // The routes, found by their resource and depth rather than by walking the whole list.
  mountRoutes(app, parts.routes, ctx);

  // Nothing matched.
  app.use((req, _res, next) => next(new AppError('not-found', `Nothing is at ${req.method} ${req.path}.`)));
  app.use(problemHandler(ctx.baseUrl, ctx.logger));
  return app;
}
