import type http from 'node:http';
import express, { type Express, type Request, type RequestHandler, type Router } from 'express';
import { apidocPages } from '../apidoc/apidoc-pages';
import type { AppContext } from '../context/app-context';
import { resolveActingUser } from '../http/acting-user';
import { requireApiVersion } from '../http/api-version';
import { AppError } from '../core/errors';
import { accessLog } from '../http/access-log';
import { createRequestListener, isApiPath } from '../http/api-entry';
import { authenticate, type PrincipalResolver } from '../http/authenticate';
import { parseStructuredBody } from '../http/parse-body';
import { problemHandler } from '../http/problem';
import { rateLimit } from '../http/rate-limit';
import { runInOrder } from '../http/run-in-order';
import { createApiRouteTable, publicRouteKeys, type AnyRoute } from '../http/route';

export type AppParts = {
  /** Every API route, in the order they are matched; the OpenAPI document is made from this list. */
  routes: readonly AnyRoute[];
  /** Other ways to authenticate than an API token (the admin UI's session). */
  principalResolvers?: readonly PrincipalResolver[];
  /** Routers of HTML pages (signing pages, admin UI), mounted after the API. */
  pages?: readonly Router[];
  /** Where the API docs find the webhook receivers they show (docs/examples). */
  examplesDir: string;
};

const apiHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
  next();
};

const nothingAt = (req: Request) => new AppError('not-found', `Nothing is at ${req.method} ${req.path}.`);

/**
 * The Express app (pages, documents, and the API as its first layer) and the server's request
 * listener, which takes API requests to the API directly (see api-entry.ts).
 */
export function createApp(ctx: AppContext, parts: AppParts): { app: Express; listener: http.RequestListener } {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // X-Forwarded-For/-Proto/-Host are believed only from these peers (docs/decisions.md,
  // "Reach"): req.ip walks X-Forwarded-For from the right, skipping trusted hops.
  app.set('trust proxy', ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false);

  // The API first: an API request then walks none of the pages' layers. The shared
  // conventions, in order: who is calling, how often, which version, the body, and which user
  // the request acts as; then the route, found by its resource and depth rather than by walking
  // the whole list. All of it one layer (each middleware is still its own step, in this order).
  // The one exception: signing in and the first-run setup (access 'public') skip who is
  // calling, as nobody is yet; they keep the version rule, which also keeps other sites' plain
  // form posts out.
  const publicKeys = publicRouteKeys(parts.routes);
  const unlessPublic =
    (handler: RequestHandler): RequestHandler =>
    (req, res, next) => {
      if (publicKeys.has(`${req.method} ${req.path}`)) return next();
      return handler(req, res, next);
    };
  const conventions = runInOrder([
    apiHeaders,
    unlessPublic(authenticate(ctx, parts.principalResolvers)),
    rateLimit(ctx),
    requireApiVersion(),
    parseStructuredBody(),
    unlessPublic(resolveActingUser(ctx)),
  ]);
  const routeTable = createApiRouteTable(parts.routes, ctx);
  const api: RequestHandler = (req, res, next) => {
    if (!isApiPath(req.path)) return next();
    conventions(req, res, (err?: unknown) => (err ? next(err) : routeTable(req, res, next)));
  };
  // The server's listener sends API requests to the same handler without Express's router.
  app.use(Object.assign(api, { routes: routeTable.routes }));

  // Public documents: the OpenAPI contract and the human-readable docs made from it.
  app.use(apidocPages(ctx, parts.routes, parts.examplesDir));

  // HTML pages that bring their own authentication (party signing pages, the admin UI).
  for (const router of parts.pages ?? []) app.use(router);

  // Nothing matched.
  app.use((req, _res, next) => next(nothingAt(req)));
  const problems = problemHandler({ office: ctx.baseUrl, party: ctx.partyBaseUrl }, ctx.logger);
  app.use(problems);
  const runApi: RequestHandler = (req, res, next) =>
    conventions(req, res, (err?: unknown) => (err ? next(err) : routeTable(req, res, next)));
  return { app, listener: createRequestListener(app, runApi, problems, nothingAt, accessLog(ctx.logger)) };
}
