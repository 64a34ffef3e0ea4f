import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseValidator, type OpenApiDocument } from '../helpers/openapi';
import { startTestServer, type TestServer } from '../helpers/server';

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[]; routes?: ReadonlyArray<{ method: string; path: string }> };
};

/** Every method and path the Express app answers under /api, read from its routers and its API route table. */
function answeredRoutes(stack: Layer[]): string[] {
  const found: string[] = [];
  for (const layer of stack) {
    for (const { method, path } of layer.handle?.routes ?? []) {
      if (path.startsWith('/api/')) found.push(`${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
    }
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        for (const method of Object.keys(layer.route.methods)) {
          if (method !== '_all' && path.startsWith('/api/')) found.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
        }
      }
    } else if (layer.handle?.stack) {
      found.push(...answeredRoutes(layer.handle.stack));
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  let t: TestServer;
  let document: OpenApiDocument & { openapi: string };
  beforeAll(async () => {
    t = await startTestServer();
    const response = await fetch(`${t.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as typeof document;
  });
  afterAll(() => t.close());

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route the server answers', () => {
    const router = (t.server.app as unknown as { router: { stack: Layer[] } }).router;
    const answered = answeredRoutes(router.stack).filter((route) => route !== 'get /api/openapi.json');
    expect(answered.length).toBeGreaterThan(10);
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(answered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !answered.includes(route))).toEqual([]);
  });

  it('publishes the problem response and the version header on every operation', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as Array<[string, any]>) {
        expect(operation.responses['401'].content['application/problem+json'], `${method} ${path}`).toBeDefined();
        const header = operation.parameters.find((p: any) => p.name === 'Accept-Api-Version');
        expect(header?.required, `${method} ${path}`).toBe(true);
      }
    }
  });

  it('catches a response that strays from it (the check can fail)', () => {
    const validate = createResponseValidator(document);
    const url = new URL(`${t.url}/api/users/1`);
    const good = { self: '/api/users/1', permission_template: 'CUSTOMER_USER', firstname: '', lastname: '', username: 'u', password: null, email: 'u@x.se', active: true, created_time: '2026-01-01 10:00:00' };
    expect(() => validate('GET', url, 200, 'application/json', good)).not.toThrow();
    expect(() => validate('GET', url, 200, 'application/json', { ...good, password: 'secret' })).toThrow(/does not match/);
    expect(() => validate('GET', url, 200, 'application/json', { ...good, created_time: '2026-01-01T10:00:00Z' })).toThrow(/does not match/);
    expect(() => validate('GET', new URL(`${t.url}/api/unlisted`), 200, 'application/json', {})).toThrow(/not in/);
  });
});

describe('the API docs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('resolve every problem type URL to the section that explains it', async () => {
    const seen = new Set<string>();
    const problems = [
      await t.api('GET', '/api/users/1', { version: null }),
      await t.api('GET', '/api/users/1', { version: '2' }),
      await t.api('GET', '/api/users/1', { key: null }),
      await t.api('GET', '/api/users/9999'),
      await t.api('PATCH', '/api/users/1'),
      await t.api('POST', '/api/users', { body: {} }),
      await t.api('POST', '/api/users', { raw: { data: '{', contentType: 'application/json' } }),
      await t.api('POST', '/api/users', { raw: { data: 'x', contentType: 'text/plain' } }),
      await t.api('GET', '/api/users', { headers: { 'api-user-uri': '/api/users/777' } }),
      await t.api('DELETE', '/api/users/1'),
    ];
    for (const problem of problems) {
      const url = new URL(problem.body.type);
      expect(url.pathname).toBe('/apidoc/v1/posting_data');
      const page = await fetch(new URL(url.pathname, t.url));
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html, problem.body.type).toContain(`<section id="${url.hash.slice(1)}">`);
      seen.add(url.hash);
    }
    expect(seen.size).toBeGreaterThanOrEqual(9);
  });

  it('serve an index of every endpoint with a strict CSP', async () => {
    const response = await fetch(`${t.url}/apidoc/v1/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await response.text();
    for (const operation of ['listUsers', 'createContractTemplate', 'createToken']) expect(html).toContain(`id="${operation}"`);
    expect((await fetch(`${t.url}/apidoc`, { redirect: 'manual' })).headers.get('location')).toBe('/apidoc/v1/');
  });
});
