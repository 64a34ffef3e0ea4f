import type { Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import { AppError, notFound } from '../core/errors';
import { groupKeyOfRequest, groupKeyOfRoute } from './route-groups';
import { runInOrder } from './run-in-order';

export type RouteEntry = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handlers: readonly RequestHandler[];
};

type Matcher = MatchFunction<Partial<Record<string, string>>>;
type CompiledRoute = { method: string; matcher: Matcher; run: RequestHandler };
type CompiledPath = { matcher: Matcher; methods: string[] };
type Group = { routes: CompiledRoute[]; paths: CompiledPath[] };

/** A route table that can list what it answers (the OpenAPI test compares it with the document). */
export type RouteTable = RequestHandler & { routes: ReadonlyArray<{ method: string; path: string }> };

/**
 * Finds and runs the route of an API request as Express's router did for this route list (a
 * router per group, its routes in list order, then a 405 per path) without the router's
 * per-request machinery, which cost more than the rest of the routing: the group is picked by
 * its key, then each of its routes is tried in list order with the matcher Express uses
 * (path-to-regexp: case-insensitive, one optional trailing slash, decoded params).
 *
 * As Express did: HEAD runs the GET route; OPTIONS answers with `Allow` (HEAD added beside
 * GET); another method on a known path is a 405 with that path's `Allow`; HEAD on a path
 * without GET, and every unknown path, goes on to the next layer. Unlike Express, a param
 * that is not valid percent-encoding is a 404 (no such resource), not a 500.
 */
export function createRouteTable(entries: readonly RouteEntry[]): RouteTable {
  const matchers = new Map<string, Matcher>();
  const matcherOf = (path: string): Matcher => {
    let matcher = matchers.get(path);
    if (!matcher) {
      matcher = match(path, { sensitive: false, end: true, trailing: true, decode: decodeURIComponent });
      matchers.set(path, matcher);
    }
    return matcher;
  };
  const groups = new Map<string, Group>();
  for (const entry of entries) {
    const key = groupKeyOfRoute(entry.path);
    let group = groups.get(key);
    if (!group) {
      group = { routes: [], paths: [] };
      groups.set(key, group);
    }
    group.routes.push({ method: entry.method, matcher: matcherOf(entry.path), run: runInOrder(entry.handlers) });
    const known = group.paths.find((path) => path.matcher === matcherOf(entry.path));
    if (known) known.methods.push(entry.method);
    else group.paths.push({ matcher: matcherOf(entry.path), methods: [entry.method] });
  }

  const table: RequestHandler = (req, res, next) => {
    const group = groups.get(groupKeyOfRequest(req.path));
    if (!group) {
      next();
      return;
    }
    try {
      const path = req.path;
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      for (const route of group.routes) {
        if (route.method !== method) continue;
        const found = route.matcher(path);
        if (!found) continue;
        req.params = found.params as Request['params'];
        route.run(req, res, next);
        return;
      }
      const known = group.paths.find((candidate) => candidate.matcher(path));
      if (!known || req.method === 'HEAD') {
        next();
        return;
      }
      if (req.method === 'OPTIONS') {
        sendOptions(
          res,
          group.paths.filter((candidate) => candidate.matcher(path)).flatMap((candidate) => candidate.methods),
        );
        return;
      }
      const allow = known.methods.join(', ');
      next(
        new AppError('method-not-allowed', `${req.method} is not allowed here; this path takes ${allow}.`, {
          headers: { Allow: allow },
        }),
      );
    } catch (error) {
      // decodeURIComponent refused a param: no resource has such a name.
      next(error instanceof URIError ? notFound() : error);
    }
  };
  return Object.assign(table, { routes: entries.map(({ method, path }) => ({ method, path })) });
}

/** Express's automatic OPTIONS answer: the methods of the path, HEAD with GET, sorted. */
function sendOptions(res: Response, methods: readonly string[]): void {
  const unique = new Set(methods);
  if (unique.has('GET')) unique.add('HEAD');
  const allow = [...unique].sort().join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}
