import express, { type Router } from 'express';
import type { AppContext } from '../context/app-context';
import { ACME_CHALLENGE_PREFIX, HEALTH_PATH } from './public-paths';
import { surfaceOf } from './surface';

/**
 * The health answer (both surfaces; the self-check fetches it on the public address) and the
 * ACME HTTP-01 challenge answers (challenge-store.ts). Neither sets a cookie or says more than
 * that this is a running SignDesk and which of its listeners answered: `surface` is `party` on
 * the party listener and `office` on the office's, so the self-check can tell a public address
 * that leads to the office port (where the admin UI and the API answer) from the right one. On the
office listener it also names the storage engine (`backend`); it answers 503 when the database
does not.
 */
/** A database slower than this to answer a `SELECT 1` makes the instance unhealthy. */
const HEALTH_DATABASE_TIMEOUT_MS = 2_000;

export function reachPages(ctx: AppContext): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get(HEALTH_PATH, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const surface = surfaceOf(req);
    // An instance whose database does not answer takes no requests: the load balancer sends
    // them to another (docs/reach.md, "What is exposed").
    const isUp = await ctx.db.answers(HEALTH_DATABASE_TIMEOUT_MS);
    res.status(isUp ? 200 : 503).json({
      status: isUp ? 'ok' : 'unavailable',
      instance: ctx.reach.instance,
      surface,
      // The storage engine is the office's business, not the internet's.
      ...(surface === 'office' ? { backend: ctx.db.dialect } : {}),
    });
  });
  router.get(`${ACME_CHALLENGE_PREFIX}:token`, (req, res, next) => {
    const answer = ctx.reach.challenges.get(String(req.params.token));
    if (answer === undefined) return next();
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/octet-stream').send(answer);
  });
  return router;
}
