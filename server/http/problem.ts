import type { ErrorRequestHandler, Request, Response } from 'express';
import { PROBLEMS, type ProblemCode } from '../../shared/api/problems';
import type { TProblem } from '../../shared/api/common';
import type { Logger } from '../logging/logger';
import { AppError } from '../core/errors';
import { isStorageFull, storageFullProblem } from '../core/storage-full';
import { tooLargeDetail } from '../../shared/sizes';
import { surfaceOf } from '../reach/surface';

export function problemTypeUrl(baseUrl: string, code: ProblemCode): string {
  return `${baseUrl}/apidoc/v1/posting_data#${PROBLEMS[code].anchor}`;
}

export function sendProblem(
  req: Request,
  res: Response,
  baseUrl: string,
  code: ProblemCode,
  detail: string,
  validationErrors: string[] = [],
): void {
  const { status, title } = PROBLEMS[code];
  const body: TProblem = {
    title,
    status,
    detail,
    instance: req.originalUrl.split('?')[0] ?? req.originalUrl,
    type: problemTypeUrl(baseUrl, code),
    validation_errors: validationErrors,
  };
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/** body-parser's error types, mapped to our problem codes. */
const BODY_PARSER_ERRORS: Record<string, [ProblemCode, string]> = {
  'entity.parse.failed': ['malformed-json', 'The body is not valid JSON.'],
  'entity.too.large': ['payload-too-large', 'The body is larger than this endpoint takes.'],
  'encoding.unsupported': ['unsupported-media-type', 'The body has a content encoding this service does not take.'],
  'charset.unsupported': ['unsupported-media-type', 'The body has a charset this service does not take.'],
  'request.aborted': ['validation-failed', 'The request body was cut off.'],
  'request.size.invalid': ['validation-failed', 'The body is shorter or longer than its Content-Length.'],
};

const STORAGE_WARNING_EVERY_MS = 60_000;

/**
 * A link whose path is its secret: a party's signing link, the shell's one-time sign-in link.
 * Any case and repeated slashes, as Express's router matches them (`/SIGN/<token>` is served).
 */
const SECRET_PATH = /^\/+(sign|admin\/+sign-in-link)\/+[^/?]+/i;

/** A request's path as the log may keep it: no query, and no secret that a link carries. */
export function loggablePath(originalUrl: string): string {
  return (originalUrl.split('?')[0] ?? '').replace(SECRET_PATH, '/$1/…');
}

/** One warning a minute at most while the disk is full, with the number of writes refused since the last. */
function storageWarnings(logger: Logger): (req: Request) => void {
  let lastWarning = 0;
  let refused = 0;
  return (req) => {
    refused += 1;
    const now = Date.now();
    if (now - lastWarning < STORAGE_WARNING_EVERY_MS) return;
    logger.warn(
      { refused, requestId: req.requestId, method: req.method, path: loggablePath(req.originalUrl) },
      'the disk is full: writes are refused (507)',
    );
    lastWarning = now;
    refused = 0;
  };
}

/**
 * What Express's router, serve-static and body-parser throw at a request they cannot read (a
 * path that is not valid percent-encoding, a body that does not decompress): a URIError, or an
 * http-error with a 4xx status meant to be shown. Undefined for anything else.
 */
function unreadableRequest(err: unknown): [ProblemCode, string] | undefined {
  if (err instanceof URIError) return ['malformed-request', 'The path is not valid percent-encoding.'];
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, expose, code } = err as { status?: unknown; expose?: unknown; code?: unknown };
  if (expose !== true || typeof status !== 'number' || status < 400 || status > 499) return undefined;
  if (status === 404) return ['not-found', 'Nothing is at this path.'];
  if (status === 413) return ['payload-too-large', 'The body is larger than this endpoint takes.'];
  if (status === 415)
    return ['unsupported-media-type', 'The body has a content encoding or type this service does not take.'];
  const isCompression =
    typeof code === 'string' &&
    (code.startsWith('Z_') || code.startsWith('ERR__ERROR') || code.startsWith('ERR_BROTLI'));
  return [
    'malformed-request',
    isCompression ? 'The body does not decompress as its Content-Encoding says.' : 'The request cannot be read.',
  ];
}

/**
 * The last middleware: every error becomes a problem response; a 500 says nothing of its cause.
 * A problem's `type` is a page of the API docs on the office's base, or, for a request that
 * came in on the party listener, on the party base: an answer to the internet never names the
 * office's own address.
 */
export function problemHandler(
  bases: { office: () => string; party: () => string },
  logger: Logger,
): ErrorRequestHandler {
  const warnStorageFull = storageWarnings(logger);
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const baseUrl = surfaceOf(req) === 'party' ? bases.party : bases.office;
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
      sendProblem(req, res, baseUrl(), err.code, err.message, err.validationErrors);
      return;
    }
    const bodyType = typeof err === 'object' && err !== null && 'type' in err ? String(err.type) : '';
    if (bodyType === 'entity.too.large') {
      // body-parser's error carries the limit, and the size when Content-Length gave it.
      const { length, limit } = err as { length?: unknown; limit?: unknown };
      if (typeof limit === 'number') {
        const size = typeof length === 'number' ? length : undefined;
        sendProblem(req, res, baseUrl(), 'payload-too-large', tooLargeDetail('body', size, limit));
        return;
      }
    }
    const known = BODY_PARSER_ERRORS[bodyType];
    if (known) {
      sendProblem(req, res, baseUrl(), known[0], known[1]);
      return;
    }
    const unreadable = unreadableRequest(err);
    if (unreadable) {
      // The client's fault, and anyone can send it without a token as often as they like: no log line.
      sendProblem(req, res, baseUrl(), unreadable[0], unreadable[1]);
      return;
    }
    if (isStorageFull(err)) {
      // Expected while the disk is full: one warning now and then, not a stack per request.
      warnStorageFull(req);
      const problem = storageFullProblem();
      sendProblem(req, res, baseUrl(), problem.code, problem.message);
      return;
    }
    logger.error(
      { err, requestId: req.requestId, method: req.method, path: loggablePath(req.originalUrl) },
      'request failed',
    );
    sendProblem(req, res, baseUrl(), 'internal-error', 'The service failed to handle this request.');
  };
}
