import type { RequestHandler } from 'express';
import type { AppContext } from '../context/app-context';
import { AppError } from '../core/errors';

/**
 * The per-token limit: `X-RateLimit-Limit` and `X-RateLimit-Remaining`
 * on every response, `X-RateLimit-Reset` once the quota is used up, 429 with `Retry-After` past it.
 */
export function rateLimit(ctx: AppContext): RequestHandler {
  return (req, res, next) => {
    const principal = req.principal;
    if (!principal) {
      next();
      return;
    }
    const now = ctx.now();
    const decision = ctx.rateLimiter.take(principal.rateKey, principal.rateLimit, now);
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    if (decision.resetAt !== undefined) res.setHeader('X-RateLimit-Reset', ctx.timestamp(decision.resetAt));
    if (decision.isAllowed) {
      next();
      return;
    }
    const waitSeconds = Math.max(1, Math.ceil(((decision.resetAt ?? now) - now) / 1000));
    next(
      new AppError(
        'rate-limited',
        `This token may make ${decision.limit} requests a minute; try again in ${waitSeconds} s.`,
        {
          headers: { 'Retry-After': String(waitSeconds) },
        },
      ),
    );
  };
}
