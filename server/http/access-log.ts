import type http from 'node:http';
import type { Request } from 'express';
import type { Logger } from '../logging/logger';
import { surfaceOf } from '../reach/surface';
import { loggablePath } from './problem';

/**
 * One info line per request when its answer is done (or the client went away first), so that
 * an integrator's `Request-Id` finds its call: the method, the path without its query and
 * without a link's secret (loggablePath), the status, the time taken, and who called (the
 * acting user, the token) when the request said. Never a header, a body or a query string:
 * those carry API keys, session cookies and signing links. The line goes to the log file's
 * queue (log-file.ts writes it later, asynchronously): nothing on the request's path waits
 * for the disk. Below info (LOG_LEVEL=warn) nothing is done at all.
 */
const MAX_PATH_LENGTH = 300;

export function accessLog(logger: Logger): (req: Request, res: http.ServerResponse) => void {
  if (!logger.isLevelEnabled('info')) return () => {};
  return (req, res) => {
    const startedAt = performance.now();
    res.once('close', () => {
      const principal = req.principal;
      logger.info(
        {
          requestId: req.requestId,
          method: req.method,
          // A path is as long as a client likes (up to Node's 16 KiB of headers): the line stays short.
          path: loggablePath(req.originalUrl ?? req.url ?? '').slice(0, MAX_PATH_LENGTH),
          status: res.statusCode,
          ms: Math.round((performance.now() - startedAt) * 10) / 10,
          ...(surfaceOf(req) === 'party' ? { surface: 'party' } : {}),
          ...(principal ? { userId: req.actor?.id ?? principal.owner.id } : {}),
          ...(principal?.tokenId !== undefined ? { tokenId: principal.tokenId } : {}),
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        'request',
      );
    });
  };
}
