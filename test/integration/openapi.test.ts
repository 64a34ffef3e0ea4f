import { Validator } from '@seriousme/openapi-schema-validator';
import pkg from '../../package.json' with { type: 'json' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from '../../shared/api/webhooks';
import { createResponseValidator, type OpenApiDocument } from '../helpers/openapi';
import { examplesIn, foreignTimestamps } from '../helpers/timestamps';
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
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(answered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !answered.includes(route))).toEqual([]);
  });

  it('publishes the problem response and the version header on every operation', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as Array<[string, any]>) {
        expect(operation.responses['401'].content['application/problem+json'], `${method} ${path}`).toBeDefined();
        // Required on the wire, declared optional so that a generated client sets it once for all calls.
        const header = operation.parameters.find((p: any) => p.name === 'Accept-Api-Version');
        expect(header?.required, `${method} ${path}`).not.toBe(true);
        expect(header?.description, `${method} ${path}`).toMatch(/^Required on every request/);
        const idempotencyKey = operation.parameters.find((p: any) => p.name === 'Idempotency-Key');
        expect(idempotencyKey !== undefined, `${method} ${path}`).toBe(
          method === 'post' && operation.security.length > 0,
        );
      }
    }
  });

  it('types the version header and path ids as integers, declares the upload headers and Location, and gives the interface version', () => {
    const doc = document as any;
    expect(doc.info.version).toBe('1.0');
    expect(doc.info['x-app-version']).toBe(pkg.version);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as Array<[string, any]>) {
        const version = operation.parameters.find((p: any) => p.name === 'Accept-Api-Version');
        expect(version.schema.type, `${method} ${path}`).toBe('integer');
        for (const id of path.match(/\{\w+\}/g) ?? []) {
          const parameter = operation.parameters.find((p: any) => p.in === 'path' && `{${p.name}}` === id);
          expect(parameter?.schema, `${method} ${path} ${id}`).toMatchObject({ type: 'integer', minimum: 1 });
        }
        for (const [status, response] of Object.entries(operation.responses) as Array<[string, any]>) {
          // One resource made has its path in Location; a list made at once (fields from text tags) has none.
          const isList = response.content?.['application/json']?.schema?.type === 'array';
          if (status === '201')
            expect(response.headers?.Location?.required, `${method} ${path}`).toBe(isList ? undefined : true);
        }
      }
    }
    const upload = doc.paths['/api/contracts/{contract_id}/attachments'].post;
    for (const name of ['Content-Type', 'Content-Disposition']) {
      expect(upload.parameters.find((p: any) => p.in === 'header' && p.name === name)).toMatchObject({
        required: true,
        schema: { type: 'string' },
      });
    }
    const create = doc.paths['/api/contracts'].post;
    expect(create.parameters.find((p: any) => p.in === 'query' && p.name === 'name')?.schema.maxLength).toBe(1000);
    expect(doc.components.schemas.ApiContractAnnotation.properties.value).toBeDefined();
    expect(doc.components.schemas.ApiContractAnnotationUpdate.properties.value).toBeUndefined();
  });

  it('describes the webhook events: payloads, signature headers, retries and disabling', () => {
    const webhooks = (document as any).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of OPTIONAL_WEBHOOK_EVENT_TYPES) expect(webhooks[type].post.summary, type).toMatch(/\(opt-in\)$/);
    for (const [type, item] of Object.entries(webhooks) as Array<[string, any]>) {
      const headers = item.post.parameters.filter((p: any) => p.in === 'header').map((p: any) => p.name);
      expect(headers).toEqual(['Date', 'Content-Type', 'Content-Digest', 'Signature-Input', 'Signature', 'Webhook-Id']);
      const payload = item.post.requestBody.content['application/json'];
      const schema = (document as any).components.schemas[payload.schema.$ref.split('/').at(-1)];
      expect(schema.required).toEqual(['type', 'timestamp', 'data']);
      expect(schema.properties.type.const).toBe(type);
      expect(payload.example.type).toBe(type);
      expect(item.post.description).toMatch(/5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h/);
      expect(item.post.description).toMatch(/after 10 permanent errors in a row/);
      expect(item.post['x-retry-schedule-seconds']).toEqual([300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
      expect(Object.keys(item.post.responses)).toEqual(['200', '400', '410', '429', '5XX']);
    }
    const partySigned = (document as any).components.schemas.ContractPartySignedEvent;
    expect(partySigned.properties.data.required).toEqual(['id', 'party']);
    // When party_opened fires: once per party, its first opening (an integrator counted on every opening).
    expect(webhooks['contract.party_opened'].post.description).toMatch(
      /^Sent once per party: the first time its signing link is opened .*Later openings of the link send nothing/,
    );
  });

  it('says which forms the updated_since filter takes, and its pattern takes them', () => {
    const parameter = (document as any).paths['/api/contracts'].get.parameters.find(
      (p: any) => p.name === 'updated_since',
    );
    expect(parameter.description).toMatch(
      /ISO 8601 time with Z or an offset: 2026-12-07T09:00:00Z, 2026-12-07T10:00:00\+01:00/,
    );
    const pattern = new RegExp(parameter.schema.pattern);
    for (const text of [
      '2026-11-26 09:00:00',
      '2026-12-07T10:00:00+01:00',
      '2026-12-07T09:00:00Z',
      '2026-12-07T04:00:00.5-05:00',
    ])
      expect(pattern.test(text), text).toBe(true);
    for (const text of ['2026-12-07T10:00:00', '2026-12-07', 'yesterday']) expect(pattern.test(text), text).toBe(false);
  });

  it('catches a response that strays from it (the check can fail)', () => {
    const validate = createResponseValidator(document);
    const url = new URL(`${t.url}/api/users/1`);
    const good = {
      self: '/api/users/1',
      permission_template: 'CUSTOMER_USER',
      firstname: '',
      lastname: '',
      username: 'u',
      password: null,
      email: 'u@x.se',
      active: true,
      created_time: '2026-01-01 10:00:00',
    };
    expect(() => validate('GET', url, 200, 'application/json', good)).not.toThrow();
    expect(() => validate('GET', url, 200, 'application/json', { ...good, password: 'secret' })).toThrow(
      /does not match/,
    );
    expect(() =>
      validate('GET', url, 200, 'application/json', { ...good, created_time: '2026-01-01T10:00:00Z' }),
    ).toThrow(/does not match/);
    expect(() => validate('GET', new URL(`${t.url}/api/unlisted`), 200, 'application/json', {})).toThrow(/not in/);
    // A timestamp where the schema says only "string" (an entry's details) is held to the form too.
    const entry = {
      time: '2026-01-01 10:00:00',
      event: 'party.signed',
      user_agent: '',
      ip_address: '',
      sequence: 1,
      recorded_time: '2026-01-01 10:00:00',
      recorded_ms: 1767258000000,
      actor_type: 'appliance',
      actor: null,
      actor_name: 'SignDesk',
      subject: '',
      details: { at: '2026-01-01 10:00:00' },
      previous_hash: '0'.repeat(64),
      hash: 'a'.repeat(64),
    };
    const log = new URL(`${t.url}/api/contracts/1/activity_log`);
    expect(() => validate('GET', log, 200, 'application/json', [entry])).not.toThrow();
    expect(() =>
      validate('GET', log, 200, 'application/json', [{ ...entry, details: { at: '2026-01-01T10:00Z' } }]),
    ).toThrow(/\$\[0\]\.details\.at: 2026-01-01T10:00Z/);
  });

  it("writes every timestamp of its examples in the interface's form YYYY-MM-DD HH:MM:SS", () => {
    const examples = examplesIn(document);
    expect(examples.length).toBeGreaterThan(20);
    const timestamps = examples.flatMap(
      ({ example }) => JSON.stringify(example).match(/\d{4}-\d{2}-\d{2}[T ][\d:]+/g) ?? [],
    );
    expect(timestamps.length, 'examples that show a timestamp').toBeGreaterThan(5);
    expect(examples.flatMap(({ at, example }) => foreignTimestamps(example, at))).toEqual([]);
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
    for (const operation of ['listUsers', 'createContractTemplate', 'createToken'])
      expect(html).toContain(`id="${operation}"`);
    expect((await fetch(`${t.url}/apidoc`, { redirect: 'manual' })).headers.get('location')).toBe('/apidoc/v1/');
  });
});
