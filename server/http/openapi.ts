import { z } from 'zod';
import { SEARCH_PARTIAL_HEADER } from './pagination';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { ZProblemSchema } from '../../shared/api/common';
import { PROBLEMS, type ProblemCode } from '../../shared/api/problems';
import { API_VERSION, INTERFACE_VERSION } from '../../shared/constants';
import { codeSamples } from './openapi-examples';
import { buildWebhooks } from './openapi-webhooks';
import type { AnyRoute, ResponseSpec } from './route';

const problemContent = { 'application/problem+json': { schema: ZProblemSchema } };

const rateLimitHeaders = z.object({
  'Request-Id': z.string().meta({
    description: "This request's id: quote it to the office when asking about a request; the server log names it",
  }),
  'X-RateLimit-Limit': z.string().meta({ description: 'Requests a minute this token may make' }),
  'X-RateLimit-Remaining': z.string().meta({ description: 'Requests left in the current minute' }),
  'X-RateLimit-Reset': z
    .string()
    .optional()
    .meta({ description: 'When one new request can be made (YYYY-MM-DD HH:MM:SS); set when the quota is used up' }),
});

const paginationHeaders = rateLimitHeaders.extend({
  Link: z
    .string()
    .optional()
    .meta({ description: 'rel="next" and rel="previous" page URLs with an opaque page token' }),
  'Pagination-Page': z.string().meta({ description: 'The 1-based number of this page' }),
  'Pagination-Items-Total': z.string().meta({ description: 'Items in the whole list' }),
  'Pagination-Num-Pages': z.string().meta({ description: 'Pages in the whole list' }),
});

const searchHeaders = {
  [SEARCH_PARTIAL_HEADER]: z.literal('true').optional().meta({
    description:
      'Present when a search (`name`, `q`) may leave matches out: it looks at its newest 1,000 matches (a query of one or two characters at the newest 1,000 contracts), and the list, total and counts are those. Narrow the search to see the rest.',
  }),
};

const createdHeaders = rateLimitHeaders.extend({
  Location: z.string().meta({ description: 'The path of the new resource: its `self`', example: '/api/contracts/1' }),
});

// Required on the wire, but declared optional: a client generated from this document then takes
// it once as a default header of every call instead of as a parameter of each one.
const commonHeaders = z.object({
  'Accept-Api-Version': z
    .int()
    .min(1)
    .optional()
    .meta({
      description: `Required on every request: ${API_VERSION} selects this version (400 when missing, 406 for another). Set it once as a default header of your client.`,
      example: API_VERSION,
    }),
  'Api-User-Uri': z
    .string()
    .optional()
    .meta({ description: 'Act as this user (/api/users/<id>); the default is the token owner' }),
});

/** Express `:name` to OpenAPI `{name}`. */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The requests the office's plan can refuse (server/subscription/allowance.ts): sending, reminding, a user's seat. */
const PLAN_LIMITED_OPERATIONS = new Set(['sendContract', 'notifyContract', 'createUser', 'updateUser']);

/** Problems that only some kinds of route can answer; the rest can come from any route of their status. */
function canAnswer(route: AnyRoute, code: ProblemCode): boolean {
  const hasBody = route.body !== undefined || route.rawBody !== undefined;
  switch (code) {
    case 'malformed-json':
      return route.body !== undefined;
    case 'malformed-request':
      return hasBody;
    case 'invalid-pdf':
      return route.rawBody?.contentTypes.some((type) => type === 'application/pdf' || type === '*') ?? false;
    case 'idempotency-key-reused':
    case 'idempotency-key-in-use':
      return route.method === 'post' && route.access !== 'public';
    case 'contract-state':
      return route.path.startsWith('/api/contracts/:contract_id');
    case 'limit-reached':
      return route.method === 'post' && route.path.startsWith('/api/contracts/:contract_id');
    case 'plan-limit':
      return PLAN_LIMITED_OPERATIONS.has(route.operationId);
    default:
      return true;
  }
}

const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().meta({
    description:
      'Any unique string (a UUID): a retry with the same key and the same request within 24 hours gets the first answer again (with `Idempotent-Replayed: true`) and changes nothing; the same key with another request is a 409.',
    example: '5b1f0c1e-2f7a-4a53-9d0e-6c2f6f1b9a10',
  }),
});

function problemResponses(route: AnyRoute): ZodOpenApiOperationObject['responses'] {
  // Public routes (signing in, first-run setup) take no token, but sign-in answers 401 to wrong credentials.
  const statuses = new Set<number>(route.access === 'public' ? [400, 401, 406, 409, 429] : [400, 401, 403, 406, 429]);
  if (route.path.includes(':')) statuses.add(404);
  // A URL (with the headers) past what the HTTP parser reads is refused before any route (server/http/client-error.ts).
  statuses.add(414);
  // A write on a full disk is refused with 507 (reads go on).
  if (route.method !== 'get') {
    statuses.add(409);
    statuses.add(507);
  }
  for (const status of route.problemStatuses ?? []) statuses.add(status);
  if (route.body || route.rawBody) {
    statuses.add(413);
    statuses.add(415);
  }
  const responses: ZodOpenApiOperationObject['responses'] = {};
  for (const status of [...statuses].sort()) {
    const titles = (Object.keys(PROBLEMS) as ProblemCode[])
      .filter((code) => PROBLEMS[code].status === status && canAnswer(route, code))
      .map((code) => PROBLEMS[code].title);
    responses[`${status}` as `4${string}`] = { description: titles.join('; '), content: problemContent };
  }
  return responses;
}

const pathId = (name: string) =>
  z
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .meta({
      description: `The ${name.replace(/_id$/, '').replace(/_/g, ' ')}'s id: the last segment of its self`,
      example: 1,
    });

const locationOnly = z.object({
  'Request-Id': rateLimitHeaders.shape['Request-Id'],
  Location: createdHeaders.shape.Location,
});
const requestIdOnly = z.object({ 'Request-Id': rateLimitHeaders.shape['Request-Id'] });

function responseHeaders(route: AnyRoute, status: string, spec: ResponseSpec) {
  // One thing made has its path in Location; a list made at once (fields from text tags) has none.
  const isOneCreated = status === '201' && !(spec.schema instanceof z.ZodArray);
  // A public route has no token to count, so no rate-limit headers.
  if (route.access === 'public') return isOneCreated ? locationOnly : requestIdOnly;
  if (isOneCreated) return createdHeaders;
  const headers = spec.isPaginated ? paginationHeaders : rateLimitHeaders;
  return spec.isSearch ? headers.extend(searchHeaders) : headers;
}

function headersOf(route: AnyRoute) {
  let headers = route.requestHeaders ? commonHeaders.extend(route.requestHeaders.shape) : commonHeaders;
  if (route.method === 'post' && route.access !== 'public') headers = headers.extend(idempotencyKeyHeader.shape);
  return headers;
}

function operationOf(route: AnyRoute): ZodOpenApiOperationObject {
  const pathParams = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1] as string);
  const responses = problemResponses(route);
  for (const [status, spec] of Object.entries(route.responses)) {
    const contentType = spec.contentType ?? 'application/json';
    responses[status as `2${string}`] = {
      description: spec.description,
      ...(responseHeaders(route, status, spec) ? { headers: responseHeaders(route, status, spec) } : {}),
      ...(spec.schema || spec.contentType
        ? { content: { [contentType]: { schema: spec.schema ?? z.string().meta({ format: 'binary' }) } } }
        : {}),
    };
  }
  const content: Record<string, { schema: z.ZodType; example?: unknown }> = {};
  if (route.body) {
    const example = route.example?.body ? { example: route.example.body } : {};
    content['application/json'] = { schema: route.body, ...example };
    content['application/x-www-form-urlencoded'] = { schema: route.body };
  }
  for (const type of route.rawBody?.contentTypes ?? []) {
    content[type] = { schema: z.string().meta({ format: 'binary', description: route.rawBody?.description }) };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: route.access === 'public' ? [] : [{ apiToken: [] }],
    requestParams: {
      header: headersOf(route),
      ...(pathParams.length > 0
        ? { path: z.object(Object.fromEntries(pathParams.map((name) => [name, pathId(name)]))) }
        : {}),
      ...(route.query ? { query: route.query } : {}),
    },
    ...(Object.keys(content).length > 0
      ? { requestBody: { required: !route.isBodyOptional && !route.rawBody?.contentTypes.includes('*'), content } }
      : {}),
    responses,
    'x-codeSamples': codeSamples(route),
    'x-access': route.access,
  };
}

/**
 * The OpenAPI 3.1 document of every mounted route (the same list the server mounts) and of the
 * webhook events. `info.version` is the interface's; the app's own is `x-app-version`.
 */
export function buildOpenApiDocument(routes: readonly AnyRoute[], baseUrl: string, appVersion: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    paths[path] = { ...paths[path], [route.method]: operationOf(route) };
  }
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'SignDesk API',
      version: INTERFACE_VERSION,
      description:
        'Contract e-signing: the customer API, the partner API, the conventions they share, and the signed webhook events. Human-readable docs: /apidoc/v1/.',
      'x-app-version': appVersion,
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        apiToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'token <public_id>:<secret>',
        },
      },
    },
    paths,
    webhooks: buildWebhooks(),
  });
}
