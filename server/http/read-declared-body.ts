import type { Request, Response } from 'express';
import { copyBytes } from '../core/copy-bytes';
import { releaseShared, type SharedBufferPool } from '../core/shared-buffers';

/** body-parser's error for a body cut off before its Content-Length (problem.ts maps its `type`). */
const cutOff = (expected: number, received: number) =>
  Object.assign(new Error('request aborted'), {
    status: 400,
    expose: true,
    type: 'request.aborted',
    expected,
    received,
  });

/**
 * The length a plain binary body declares, when it is one `readIntoPool` takes: a Content-Length
 * of at least one byte and at most `maxBytes`, no content encoding, and not read yet. Any other
 * body (chunked, compressed, over the limit, empty) is body-parser's, which inflates, counts
 * and refuses as before.
 */
export function declaredLength(req: Request, maxBytes: number): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || !/^\d{1,10}$/.test(header) || req.complete) return undefined;
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return undefined;
  const length = Number(header);
  return length > 0 && length <= maxBytes ? length : undefined;
}

/**
 * Reads a body of `length` declared bytes into a slot of `pool` as its pieces arrive (no list of
 * pieces joined at the end), for a worker thread to read in place; the slot is held until the
 * response closes. Undefined when the pool has no slot that size. Node's HTTP parser delivers
 * no more than the declared length; a body cut off before it is a 400.
 */
export function readIntoPool(
  req: Request,
  res: Response,
  pool: SharedBufferPool,
  length: number,
): Promise<Buffer> | undefined {
  const body = pool.take(length);
  if (!body) return undefined;
  res.once('close', () => releaseShared(body));
  let received = 0;
  return new Promise((resolve, reject) => {
    const onData = (piece: Buffer) => {
      received += copyBytes(body, piece, received);
    };
    const settle = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', settle);
      if (error) reject(error);
      else if (received === length) resolve(body);
      else reject(cutOff(length, received));
    };
    const onEnd = () => settle();
    const onClose = () => settle(received === length && req.complete ? undefined : cutOff(length, received));
    req.on('data', onData).on('end', onEnd).on('close', onClose).on('error', settle);
  });
}
