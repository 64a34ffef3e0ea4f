import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs middlewares one after another as a single Express layer: the same order and the same
 * `next(err)` semantics (an error skips the rest), without the router's per-layer path
 * matching and URL trimming, which on the API's hot path cost more than the middlewares did.
 */
export function runInOrder(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, done) => runFrom(handlers, 0, req, res, done);
}

function runFrom(
  handlers: readonly RequestHandler[],
  index: number,
  req: Request,
  res: Response,
  done: NextFunction,
): void {
  const handler = handlers[index];
  if (!handler) {
    done();
    return;
  }
  try {
    // An inline callback: tsx's keep-names would wrap a named per-request closure in a defineProperty call.
    const result: unknown = handler(req, res, (err?: unknown) => {
      if (err !== undefined && err !== null) done(err);
      else runFrom(handlers, index + 1, req, res, done);
    });
    // Like Express 5, a rejected promise from a middleware is an error.
    if (result instanceof Promise) result.catch((error: unknown) => done(error ?? new Error('Rejected promise')));
  } catch (error) {
    done(error);
  }
}
