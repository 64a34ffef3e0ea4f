import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../server/app/routes';
import { codeBlocks, expectedFields, sectionOf, tableFields } from '../helpers/apidoc';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

type Schema = Record<string, any>;
type Operation = {
  operationId: string;
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema?: Schema; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  'x-codeSamples'?: Array<{ source: string }>;
};
type Document = {
  info: { version: string; 'x-app-version': string };
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const PROBLEM = '#/components/schemas/JsonProblemResponse';
const CONVENTION_HEADERS = new Set(['Accept-Api-Version', 'Api-User-Uri']);
const root = path.resolve(import.meta.dirname, '../..');

/**
 * Every body and response of the document against the page: each must render as a table
 * holding exactly its fields (nested ones too). Returns what is missing, one line each.
 */
function findGaps(document: Document, html: string): string[] {
  const gaps: string[] = [];
  const compare = (where: string, shown: string[] | undefined, wanted: string[]) => {
    if (wanted.length === 0) return;
    if (!shown) gaps.push(`${where}: no field table`);
    else if (JSON.stringify(shown) !== JSON.stringify(wanted))
      gaps.push(`${where}: shows ${shown.join(',')} instead of ${wanted.join(',')}`);
  };
  const problemFields = expectedFields(document, { $ref: PROBLEM });
  compare('problem responses', tableFields(html, 'problem'), problemFields);
  for (const [route, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method} ${route}`;
      const section = sectionOf(html, operation.operationId);
      if (!section) {
        gaps.push(`${where}: no section`);
        continue;
      }
      for (const place of ['path', 'query', 'header']) {
        const parameters = (operation.parameters ?? []).filter(
          (p) => p.in === place && !CONVENTION_HEADERS.has(p.name),
        );
        compare(
          `${where} ${place} parameters`,
          tableFields(section, place),
          parameters.map((p) => p.name),
        );
      }
      const json = operation.requestBody?.content['application/json']?.schema;
      if (json) compare(`${where} request body`, tableFields(section, 'request'), expectedFields(document, json));
      for (const [status, response] of Object.entries(operation.responses)) {
        const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
        if (media?.schema?.$ref === PROBLEM) {
          if (!new RegExp(`<li><code>${status}</code> <a href="/apidoc/v1/posting_data#`).test(section))
            gaps.push(`${where} ${status}: problem not listed`);
        } else if (type === 'application/json' && media?.schema) {
          compare(
            `${where} ${status}`,
            tableFields(section, `response-${status}`),
            expectedFields(document, media.schema),
          );
        } else if (type && !section.includes(`(<code>${type}</code>)`)) {
          gaps.push(`${where} ${status}: the ${type} body is not described`);
        }
      }
    }
  }
  for (const [type, item] of Object.entries(document.webhooks)) {
    const operation = item.post as Operation;
    const section = sectionOf(html, `event-${type.replace(/\W+/g, '-')}`) ?? '';
    const schema = operation.requestBody?.content['application/json']?.schema as Schema;
    compare(`webhook ${type}`, tableFields(section, 'webhook-payload'), expectedFields(document, schema));
    const headers = (operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name);
    compare(`webhook ${type} headers`, tableFields(html, 'webhook-headers'), headers);
  }
  return gaps;
}

describe('the API docs', () => {
  let t: TestServer;
  let document: Document;
  let html: string;
  beforeAll(async () => {
    t = await startTestServer();
    document = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as Document;
    const response = await fetch(`${t.url}/apidoc/v1/`);
    expect(response.status).toBe(200);
    html = await response.text();
  });
  afterAll(() => t.close());

  it('render every request body, response, parameter and webhook payload of the OpenAPI document with its fields', () => {
    expect(Object.values(document.paths).flatMap((item) => Object.keys(item)).length).toBeGreaterThan(60);
    expect(findGaps(document, html)).toEqual([]);
    // Nested fields are there: a party's e-mail status flags, an event's attempts.
    expect(tableFields(sectionOf(html, 'getContractParty') ?? '', 'response-200')).toContain('email_status.sent');
    expect(tableFields(sectionOf(html, 'getWebhookEvent') ?? '', 'response-200')).toContain('attempts[].status_code');
    // Types, bounds, enum values and examples are shown, and the check can fail.
    const party = sectionOf(html, 'createContractParty') ?? '';
    expect(party).toMatch(/data-field="name"><td[^>]*><code>name<\/code><span class="badge required">/);
    expect(party).toContain('at most 1,000 characters');
    expect(party).toContain('<code>&quot;EMAIL_AND_SMS&quot;</code>');
    expect(party).toContain('Example: <code>&quot;/api/users/1&quot;</code>');
    const broken = html.replace('<tr data-field="email_status.sent">', '<tr data-field="email_status.sen">');
    expect(findGaps(document, broken).join('\n')).toMatch(/email_status\.sen,/);
    expect(findGaps(document, html.replace('data-for="request"', 'data-for="nothing"')).length).toBeGreaterThan(0);
  });

  it('give every endpoint a curl example whose body is valid for it', () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(document as object, 'openapi');
    const blocks = codeBlocks(html).filter((block) => block.attributes.class === 'curl');
    for (const [route, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const source = operation['x-codeSamples']?.[0]?.source ?? '';
        const shown = blocks.find(
          (block) => block.attributes['data-operation'] === operation.operationId && !block.attributes['data-step'],
        );
        expect(shown?.code, operation.operationId).toBe(source);
        expect(source).toContain(`"$SIGNDESK_URL${route.replace(/\{\w+\}/g, '1')}`);
        if (method !== 'get') expect(source).toContain(`-X ${method.toUpperCase()}`);
        const media = operation.requestBody?.content['application/json'];
        if (!media) continue;
        expect(media.example, `${operation.operationId} has an example body`).toBeDefined();
        const pointer = ['paths', route, method, 'requestBody', 'content', 'application/json', 'schema']
          .map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1')))
          .join('/');
        const validate = ajv.compile({ $ref: `openapi#/${pointer}` });
        expect(validate(media.example), `${operation.operationId}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    }
  });

  it('validate each route example with the schema the server itself checks', () => {
    for (const route of apiRoutes) {
      if (!route.body) continue;
      expect(route.example?.body, route.operationId).toBeDefined();
      const result = route.body.safeParse(route.example?.body);
      expect(result.success, `${route.operationId}: ${JSON.stringify(result.error?.issues)}`).toBe(true);
    }
  });

  it('are sent compressed to a browser that takes brotli or gzip, and whole to one that takes neither', async () => {
    const { request } = await import('node:http');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const get = (urlPath: string, encoding: string) =>
      new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
        request(`${t.url}${urlPath}`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
        })
          .on('error', reject)
          .end();
      });
    for (const urlPath of ['/apidoc/v1/', '/api/openapi.json']) {
      const plain = await get(urlPath, 'identity');
      expect(plain.encoding).toBeUndefined();
      const br = await get(urlPath, 'gzip, deflate, br');
      expect(br.encoding).toBe('br');
      expect(br.body.length).toBeLessThan(plain.body.length / 5);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const gzip = await get(urlPath, 'gzip');
      expect(gzip.encoding).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    }
  });

  it('are served under a strict CSP with nothing inline or from elsewhere, with a table of contents', async () => {
    const response = await fetch(`${t.url}/apidoc/v1/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\sstyle="/);
    for (const [, url] of html.matchAll(/\s(?:src|href)="([^"]*)"/g)) expect(url, url).toMatch(/^(\/|#)/);
    for (const asset of ['/apidoc/v1/style.css', '/apidoc/v1/apidoc.js', '/apidoc/v1/posting_data']) {
      expect((await fetch(`${t.url}${asset}`)).status, asset).toBe(200);
    }
    const toc = /<nav class="toc"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    for (const anchor of [
      '#quick-start',
      '#conventions',
      '#pagination',
      '#rate-limit',
      '#problem-responses',
      '#createContract',
      '#webhooks',
      '#verifying',
      '#receivers',
    ]) {
      expect(toc).toContain(`href="${anchor}"`);
      expect(html).toContain(`id="${anchor.slice(1)}"`);
    }
    for (const words of [
      'Accept-Api-Version: 1',
      'Authorization: token',
      'Pagination-Items-Total',
      'X-RateLimit-Remaining',
      'application/problem+json',
      'Location',
    ]) {
      expect(sectionOf(html, 'conventions')).toContain(words);
    }
  });

  it('show and serve the webhook receivers kept in docs/examples', async () => {
    for (const name of ['webhook-receiver.mjs', 'webhook_receiver.py']) {
      const source = fs.readFileSync(path.join(root, 'docs/examples', name), 'utf8');
      const response = await fetch(`${t.url}/apidoc/v1/examples/${name}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(source);
      expect(
        codeBlocks(html).some((block) => block.attributes.class === 'receiver' && block.code === source),
        name,
      ).toBe(true);
    }
    // The Node receiver imports nothing but Node itself.
    const node = fs.readFileSync(path.join(root, 'docs/examples/webhook-receiver.mjs'), 'utf8');
    expect(
      [...node.matchAll(/from '([^']+)'/g)].map((match) => match[1]).every((name) => name?.startsWith('node:')),
    ).toBe(true);
  });

  it('keep a Python receiver that compiles', () => {
    const dir = makeTempDir('signdesk-py-');
    execFileSync('python3', ['-m', 'py_compile', path.join(root, 'docs/examples/webhook_receiver.py')], {
      env: { ...process.env, PYTHONPYCACHEPREFIX: dir },
    });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
