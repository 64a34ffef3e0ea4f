import { randomUUID } from 'node:crypto';
import type http from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';

const OPENAPI_PATH = '/api/openapi.json';

/**
 * `/api` and everything under it (case-insensitive, as Express matches a mount path) but the
 * public OpenAPI document, which is documentation served with the pages.
 */
export function isApiPath(path: string): boolean {
  if (path.length < 4 || path.slice(0, 4).toLowerCase() !== '/api' || (path.length > 4 && path.charCodeAt(4) !== 47))
    return false;
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return bare.length !== OPENAPI_PATH.length || bare.toLowerCase() !== OPENAPI_PATH;
}

/**
 * The server's request listener. An API request goes straight to `api` (the conventions and the
 * route table), everything else to the Express app. Express's router, for the one layer an API
 * request needs, cost more per request than the conventions together; what app.handle does
 * before routing (req and res linked, Express's request and response prototypes, `locals`,
 * `originalUrl`, and the router's `baseUrl`) is done here the same way, so handlers see the same objects. An error or a
 * miss (`next()`) ends in `onError`, the app's own problem handler. `logRequest` sees every
 * request this listener takes (both listeners' requests: the party listener's gate passes its
 * own on to this one) and writes its line when the answer is done.
 */
export function createRequestListener(
  app: Express,
  api: RequestHandler,
  onError: ErrorRequestHandler,
  notFound: (req: Request) => unknown,
  logRequest: (req: Request, res: http.ServerResponse) => void = () => {},
): http.RequestListener {
  return (incoming, outgoing) => {
    // Every answer names its request, for the caller to quote and the log to find (access-log.ts).
    const requestId = randomUUID();
    (incoming as Request).requestId = requestId;
    outgoing.setHeader('Request-Id', requestId);
    logRequest(incoming as Request, outgoing);
    const url = incoming.url ?? '';
    const query = url.indexOf('?');
    if (url.charCodeAt(0) !== 47 || !isApiPath(query < 0 ? url : url.slice(0, query))) {
      app(incoming, outgoing);
      return;
    }
    const req = incoming as Request;
    const res = outgoing as Response;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null) as Response['locals'];
    req.originalUrl = url;
    // Express's router gives every request the path it is mounted at; the API is at the root.
    req.baseUrl = '';
    const fail = (err: unknown) => onError(err, req, res, () => undefined);
    try {
      api(req, res, (err?: unknown) => fail(err ?? notFound(req)));
    } catch (err) {
      fail(err);
    }
  };
}
