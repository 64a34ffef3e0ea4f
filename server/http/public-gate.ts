import type http from 'node:http';
import { isPublicPath } from '../reach/public-paths';
import { markPartyRequest } from '../reach/surface';

const NOT_HERE = JSON.stringify({
  type: 'about:blank',
  title: 'Not Found',
  status: 404,
  detail: 'Nothing is at this path on the public address.',
  validation_errors: [],
});

/**
 * The party surface's request listener: a request for a path the party surface serves
 * (reach/public-paths.ts) goes on to the app; anything else is answered 404 here, before any
 * middleware, session or cookie code runs, whatever its method. Only origin-form targets
 * (`/path`) are taken: an absolute-form target (`GET http://host/api/users`) or `*` is 404 too.
 */
export function publicGate(listener: http.RequestListener): http.RequestListener {
  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    if (pathname.charCodeAt(0) === 47 /* / */ && isPublicPath(pathname)) {
      markPartyRequest(req);
      listener(req, res);
      return;
    }
    res.writeHead(404, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(NOT_HERE),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(NOT_HERE);
  };
}
