import express, { type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { AppContext } from '../context/app-context';
import { createRouteViews, type Act, type RouteContext } from './route-view';
import { authorizeRoute, type Access } from '../policies/routes';
import { AppError, notFound } from '../core/errors';
import type { Actor, Principal } from '../core/actor';
import { idempotency } from './idempotency';
import { declaredLength, readIntoPool } from './read-declared-body';
import { createRouteTable, type RouteEntry, type RouteTable } from './route-table';
import { coerceFormBody, parseOrThrow, withoutReadOnly } from './validate';
import { tooLargeDetail } from '../../shared/sizes';

export type ResponseSpec = {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
  isPaginated?: boolean;
  /** A search (`name`, `q`) may answer `Search-Partial` (server/http/pagination.ts). */
  isSearch?: boolean;
};

export type RawBodySpec = {
  contentTypes: readonly string[];
  maxBytes: number;
  description: string;
  /** What the body is, as a refusal over maxBytes names it ("The PDF is 2.3 MiB; the limit is 2 MiB."). */
  noun?: string;
  /** The handler reads the body from `req` as a stream (a file too large to hold); it must enforce maxBytes. */
  isStreamed?: boolean;
  /**
   * A PDF for the PDF sandbox: a body with a Content-Length is read into the upload memory
   * (`ctx.uploadMemory`), which the sandbox's worker reads in place.
   */
  isForSandbox?: boolean;
};

/**
 * The request the API docs show (as curl) and publish as the OpenAPI examples. Path ids default
 * to 1; `file` is a binary body read from a file of that name (curl sends it rather than
 * `body` when a route takes both).
 */
export type RouteExample = {
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  file?: { name: string; contentType: string };
  /** Where a binary answer is saved (curl -o). */
  output?: string;
};

/** `{ contract_id: number }` from `/api/contracts/:contract_id`. */
export type PathIds<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: number } & PathIds<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: number }
    : Record<string, never>;

export type { RouteContext, Act } from './route-view';

export type HandlerInput<P extends string, Q extends z.ZodType | undefined, B extends z.ZodType | undefined> = {
  req: Request;
  res: Response;
  /** The route's view (route-view.ts): reads, scoped to the acting user; nothing in it writes. */
  ctx: RouteContext;
  /** Calls a domain service with the full context: how a route writes. */
  act: Act;
  /** Path ids (`:contract_id` and the like), already checked to be positive integers. */
  ids: PathIds<P>;
  query: Q extends z.ZodType ? z.output<Q> : Record<string, never>;
  body: B extends z.ZodType ? z.output<B> : undefined;
  /** The binary body of a `rawBody` route. */
  raw: Buffer | undefined;
  actor: Actor;
  principal: Principal;
};

export type RouteSpec<
  P extends string = string,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> = {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express path, e.g. `/api/users/:user_id`. */
  path: P;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  query?: Q;
  /** JSON or form body schema; the same schema is published in the OpenAPI document. */
  body?: B;
  isBodyOptional?: boolean;
  readOnlyFields?: readonly string[];
  rawBody?: RawBodySpec;
  /** Request headers the route reads beyond the conventions (an upload's Content-Disposition). */
  requestHeaders?: z.ZodObject;
  example?: RouteExample;
  responses: Record<number, ResponseSpec>;
  /** Problem statuses beyond those every route of its kind can answer (e.g. 409 on a GET). */
  problemStatuses?: readonly number[];
  handler: (input: HandlerInput<P, Q, B>) => void | Promise<void>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list holds routes of every body and query type
export type AnyRoute = RouteSpec<any, any, any>;

/** Identity with inference: lets each router declare its routes with typed handlers. */
export function defineRoute<
  P extends string,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): AnyRoute {
  return spec;
}

const ID_PATTERN = /^[1-9][0-9]{0,15}$/;
const JSON_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

function readIds(req: Request): Record<string, number> {
  // Express names the params after the path; a non-integer id is no resource at all.
  const ids: Record<string, number> = {};
  const params = req.params as Record<string, unknown>;
  for (const name in params) {
    const value = params[name];
    if (typeof value !== 'string' || !ID_PATTERN.test(value) || !Number.isSafeInteger(Number(value))) {
      throw notFound();
    }
    ids[name] = Number(value);
  }
  return ids;
}

function readBody(route: AnyRoute, req: Request): unknown {
  if (!route.body) return undefined;
  // An empty body (Content-Length: 0, as fetch sends for a bare POST) is no body, whatever its type.
  const hasBody = req.is(JSON_TYPES) !== null && req.headers['content-length'] !== '0';
  if (hasBody && req.is(JSON_TYPES) === false) {
    throw new AppError(
      'unsupported-media-type',
      'Send the body as application/json or application/x-www-form-urlencoded.',
    );
  }
  let body: unknown = req.body ?? {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('validation-failed', 'The body must be a JSON object.', {
      validationErrors: ['body: must be an object'],
    });
  }
  if (req.is('application/x-www-form-urlencoded')) body = coerceFormBody(route.body, body as Record<string, unknown>);
  return parseOrThrow(route.body, withoutReadOnly(body, route.readOnlyFields ?? []));
}

function checkRawType(spec: RawBodySpec, req: Request): void {
  const type = req.headers['content-type'];
  if (!type || req.is([...spec.contentTypes]) === false) {
    throw new AppError('unsupported-media-type', `Send the body with Content-Type ${spec.contentTypes.join(' or ')}.`);
  }
}

/**
 * `name[key]=value` query parameters (OpenAPI's deepObject style, as `metadata[order_id]=A-1`)
 * as one object `name: { key: value }`; Express's simple parser leaves them flat. Other
 * parameters stay as they are, so that the query schema refuses what it does not know.
 */
export function foldBracketKeys(query: Record<string, unknown>): Record<string, unknown> {
  const folded: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const match = /^([a-z_]+)\[([^\][]*)\]$/.exec(name);
    if (!match) {
      folded[name] = value;
      continue;
    }
    const [, group = '', key = ''] = match;
    const holder = folded[group];
    const target =
      holder && typeof holder === 'object' && !Array.isArray(holder)
        ? (holder as Record<string, unknown>)
        : (folded[group] = Object.create(null) as Record<string, unknown>);
    target[key] = value;
  }
  return folded;
}

function toHandler(
  route: AnyRoute,
  context: AppContext,
  viewFor: (actor: Actor | undefined) => RouteContext,
): RequestHandler {
  const act: Act = (service, ...args) => service(context, ...args);
  // Not async: most handlers are synchronous; the route table passes on the rejection of those that are not.
  return (req, res) => {
    const ids = readIds(req);
    const principal = req.principal;
    const actor = req.actor;
    if (route.access !== 'public') {
      if (!principal || !actor) throw new AppError('unauthorized', 'Authenticate first.');
      authorizeRoute(route.access, principal, actor);
    }
    const query = route.query ? parseOrThrow(route.query, foldBracketKeys(req.query), 'query') : {};
    // A route may take a binary body, a JSON/form body, or either (a PDF or a template path).
    const isRaw = route.rawBody !== undefined && !(route.body && req.is(JSON_TYPES));
    if (isRaw && route.rawBody) checkRawType(route.rawBody, req);
    const body = isRaw ? undefined : readBody(route, req);
    const raw = isRaw && Buffer.isBuffer(req.body) ? req.body : undefined;
    // A public route's handler gets no actor or principal: it must not read them.
    return route.handler({
      req,
      res,
      ctx: viewFor(actor),
      act,
      ids: ids as never,
      query,
      body,
      raw,
      actor: actor as Actor,
      principal: principal as Principal,
    });
  };
}

/** A binary body up to its limit; one over it is a 413 naming its size and the limit. */
function readRawBody(spec: RawBodySpec, ctx: AppContext): RequestHandler {
  const parse = express.raw({ type: () => true, limit: spec.maxBytes });
  return (req, res, next) => {
    const length = spec.isForSandbox ? declaredLength(req, spec.maxBytes) : undefined;
    const pooled = length === undefined ? undefined : readIntoPool(req, res, ctx.uploadMemory, length);
    if (pooled) {
      pooled.then((body) => {
        req.body = body;
        next();
      }, next);
      return;
    }
    parse(req, res, (err?: unknown) => {
      const failure = err as { type?: unknown; length?: unknown } | undefined;
      if (failure?.type !== 'entity.too.large') return next(err);
      const size = typeof failure.length === 'number' ? failure.length : undefined;
      next(new AppError('payload-too-large', tooLargeDetail(spec.noun ?? 'body', size, spec.maxBytes)));
    });
  };
}

/** `POST /api/session`-style keys of the routes that take no authentication. */
export function publicRouteKeys(routes: readonly AnyRoute[]): Set<string> {
  return new Set(
    routes.filter((route) => route.access === 'public').map((route) => `${route.method.toUpperCase()} ${route.path}`),
  );
}

/**
 * Every route in one table (see route-table.ts): a 405 with `Allow` for known paths called with
 * another method, Express's answers to HEAD and OPTIONS.
 */
export function createApiRouteTable(routes: readonly AnyRoute[], ctx: AppContext): RouteTable {
  const viewFor = createRouteViews(ctx);
  const entries: RouteEntry[] = routes.map((route) => {
    const handlers: RequestHandler[] = [];
    if (route.rawBody && !route.rawBody.isStreamed) handlers.push(readRawBody(route.rawBody, ctx));
    if (route.method === 'post' && route.access !== 'public')
      handlers.push(idempotency(() => ctx.repos.idempotency, ctx.now));
    handlers.push(toHandler(route, ctx, viewFor));
    return { method: route.method.toUpperCase() as RouteEntry['method'], path: route.path, handlers };
  });
  return createRouteTable(entries);
}

/**
 * What `res.status(status).json(body)` sends here (no ETag, no JSON settings, no body for 204
 * and 304, none on HEAD), written directly: Express's `json` and `send` rework the headers on
 * every call. A 201 names what it created in `Location`: the new resource's `self` path.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.statusCode = status;
  if (status === 201 && !res.hasHeader('Location')) {
    const self = (body as { self?: unknown } | null)?.self;
    if (typeof self === 'string') res.setHeader('Location', self);
  }
  if (status === 204 || status === 304) {
    res.end();
    return;
  }
  const json = JSON.stringify(body) ?? '';
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
