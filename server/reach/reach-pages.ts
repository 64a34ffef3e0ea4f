import express, { type Router } from 'express';
import type { AppContext } from '../core/context';
import { ACME_CHALLENGE_PREFIX, HEALTH_PATH } from './public-paths';

/**
 * The health answer (both surfaces; the self-check fetches it on the public address) and the
 * ACME HTTP-01 challenge answers (challenge-store.ts). Neither sets a cookie or says more than
 * that this is a running SignDesk.
 */
export function reachPages(ctx: AppContext): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.get(HEALTH_PATH, (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok', instance: ctx.reach.instance });
  });
  router.get(`${ACME_CHALLENGE_PREFIX}:token`, (req, res, next) => {
    const answer = ctx.reach.challenges.get(String(req.params.token));
    if (answer === undefined) return next();
    res.setHeader('Cache-Control', 'no-store');
    res.type('application/octet-stream').send(answer);
  });
  return router;
}
