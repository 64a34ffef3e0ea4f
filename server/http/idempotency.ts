import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../core/errors';
import type { IdempotencyRepo } from '../db/repos/idempotency';

/** How long a first answer is kept for a retry (Stripe keeps its keys as long). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The longest key taken: a UUID is 36 characters; Stripe allows 255. */
const MAX_KEY_LENGTH = 255;
/** Answers larger than this (a backup file, say) are not kept: a retry runs the request again. */
const MAX_STORED_BYTES = 1024 * 1024;
const PRINTABLE = /^[\x21-\x7e]+$/;

function fingerprintOf(req: Request): string {
  const hash = createHash('sha256');
  hash.update(`${req.method} ${req.originalUrl}\n`);
  hash.update(`${req.headers['content-type'] ?? ''}\n`);
  if (Buffer.isBuffer(req.body)) hash.update(req.body);
  else if (req.body !== undefined && req.body !== null) hash.update(JSON.stringify(req.body));
  else hash.update(`length:${req.headers['content-length'] ?? ''}`);
  return hash.digest('hex');
}

function readKey(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !PRINTABLE.test(key)) {
    throw new AppError('validation-failed', 'The request has invalid fields; see validation_errors.', {
      validationErrors: [`Idempotency-Key: 1 to ${MAX_KEY_LENGTH} printable ASCII characters without spaces`],
    });
  }
  return key;
}

function replay(
  res: Response,
  row: { status: number; contentType: string | null; location: string | null; body: Buffer | null },
): void {
  res.statusCode = row.status;
  res.setHeader('Idempotent-Replayed', 'true');
  if (row.contentType) res.setHeader('Content-Type', row.contentType);
  if (row.location) res.setHeader('Location', row.location);
  const body = row.body ?? Buffer.alloc(0);
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/**
 * Watches the answer as it is written: a whole body written at once with `end` (every JSON and
 * problem answer) is kept; one streamed with `write` (a download) is not, and frees the key.
 */
/** `onAnswer` runs before the answer leaves: a retry that comes once the client has it finds it kept. */
function captureAnswer(res: Response, onAnswer: (body: Buffer | undefined) => Promise<void>): void {
  let isStreamed = false;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    isStreamed = true;
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    const [chunk] = args;
    let body: Buffer | undefined;
    if (!isStreamed && typeof chunk === 'string') body = Buffer.from(chunk);
    else if (!isStreamed && Buffer.isBuffer(chunk)) body = chunk;
    else if (!isStreamed && (chunk === undefined || typeof chunk === 'function')) body = Buffer.alloc(0);
    const send = () => end(...args);
    onAnswer(body).then(send, send);
    return res;
  }) as Response['end'];
}

/**
 * `Idempotency-Key` on a POST: the first request with a key runs and its answer (status, body,
 * `Location`) is kept for 24 hours under the caller; a repeat with the same method, path, query
 * and body gets that answer again and does nothing; the same key with another request is a 409
 * `idempotency-key-reused`, and one that comes while the first is still running a 409
 * `idempotency-key-in-use`. Answers of 5xx and 429 are not kept (the request did not happen).
 * Runs after the body is read and before the handler, so that a body's bytes are part of the key.
 */
export function idempotency(repos: () => IdempotencyRepo, now: () => number): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'POST') return next();
    const key = readKey(req);
    const scope = req.principal?.rateKey;
    if (key === undefined || scope === undefined) return next();
    const fingerprint = fingerprintOf(req);
    const repo = repos();
    const time = now();
    if (!(await repo.claim(scope, key, fingerprint, time, time - IDEMPOTENCY_WINDOW_MS))) {
      const row = await repo.find(scope, key);
      if (row && row.fingerprint !== fingerprint) {
        throw new AppError(
          'idempotency-key-reused',
          'This Idempotency-Key was used for another request in the last 24 hours; use a new key for a new request.',
        );
      }
      if (!row || row.status === null) {
        throw new AppError(
          'idempotency-key-in-use',
          'The first request with this Idempotency-Key is still being answered.',
          {
            headers: { 'Retry-After': '1' },
          },
        );
      }
      replay(res, { ...row, status: row.status });
      return;
    }
    captureAnswer(res, async (body) => {
      const status = res.statusCode;
      try {
        const isKept = body !== undefined && body.length <= MAX_STORED_BYTES && status < 500 && status !== 429;
        if (!isKept) {
          await repo.release(scope, key);
          return;
        }
        const location = res.getHeader('Location');
        const contentType = res.getHeader('Content-Type');
        await repo.record(scope, key, {
          status,
          body,
          location: typeof location === 'string' ? location : null,
          contentType: typeof contentType === 'string' ? contentType : null,
        });
      } catch {
        // Not kept (a full disk, say): the key stays in use until released at the next start.
      }
    });
    // A client that hangs up before the answer gets nothing kept: its retry runs the request.
    res.once('close', () => {
      if (!res.writableEnded) void repo.release(scope, key).catch(() => undefined);
    });
    next();
  };
}
