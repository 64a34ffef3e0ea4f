import { expectProblem } from '../helpers/problems';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, startTestServer, type TestServer } from '../helpers/server';

describe('shared API conventions', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  describe('Accept-Api-Version', () => {
    it('refuses a request without the header with 400 api-version', async () => {
      const response = await t.api('GET', '/api/users/1', { version: null });
      expectProblem(response, 400, 'api-version');
      expect(response.body.instance).toBe('/api/users/1');
    });

    it('refuses a non-integer version with 400', async () => {
      expectProblem(await t.api('GET', '/api/users/1', { version: 'one' }), 400, 'api-version');
    });

    it('refuses version 2 with 406', async () => {
      const response = await t.api('GET', '/api/users/1', { version: '2' });
      expectProblem(response, 406, 'api-version');
      expect(response.headers.get('x-ratelimit-limit')).toBe('100000');
    });

    it('serves version 1', async () => {
      expect((await t.api('GET', '/api/users/1')).status).toBe(200);
    });
  });

  describe('Authorization', () => {
    it('refuses a request without a token with 401', async () => {
      const response = await t.api('GET', '/api/users/1', { key: null });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('refuses a malformed header with 401', async () => {
      expectProblem(
        await t.api('GET', '/api/users/1', { headers: { authorization: 'Bearer abc' }, key: null }),
        401,
        'unauthorized',
      );
    });

    it('refuses a wrong secret with 401', async () => {
      const [publicId] = t.adminKey.split(':');
      expectProblem(await t.api('GET', '/api/users/1', { key: `${publicId}:${'A'.repeat(43)}` }), 401, 'unauthorized');
    });

    it('refuses an unknown public id with 401', async () => {
      expectProblem(
        await t.api('GET', '/api/users/1', { key: `sdk_nobodyhere:${'A'.repeat(43)}` }),
        401,
        'unauthorized',
      );
    });

    it('refuses a revoked token with 401 from the next request on', async () => {
      const partner = await cli(t.dataDir, ['token', 'create', '--name', 'partner', '--kind', 'partner']);
      const victim = await cli(t.dataDir, ['token', 'create', '--name', 'victim']);
      const victimKey = victim.out.at(-1) as string;
      expect((await t.api('GET', '/api/users/1', { key: victimKey })).status).toBe(200);
      const list = await t.api('GET', '/api/partner/tokens?per_page=100', { key: partner.out.at(-1) as string });
      const row = list.body.find((token: { public_id: string }) => token.public_id === victimKey.split(':')[0]);
      expect((await t.api('DELETE', row.self, { key: partner.out.at(-1) as string })).status).toBe(204);
      expectProblem(await t.api('GET', '/api/users/1', { key: victimKey }), 401, 'unauthorized');
    });
  });

  describe('Api-User-Uri', () => {
    it('acts as the named user: the template author follows it', async () => {
      const user = await t.api('POST', '/api/users', { body: { username: 'clerk', email: 'clerk@office.test' } });
      const template = await t.api('POST', '/api/contract_templates', {
        body: { name: 'NDA' },
        headers: { 'api-user-uri': user.body.self },
      });
      expect(template.status).toBe(201);
      expect(template.body.created_by).toBe(user.body.self);
      const own = await t.api('POST', '/api/contract_templates', { body: { name: 'Lease' } });
      expect(own.body.created_by).toBe(t.adminPath);
    });

    it('refuses an unknown user with 403', async () => {
      expectProblem(
        await t.api('GET', '/api/contract_templates', { headers: { 'api-user-uri': '/api/users/999' } }),
        403,
        'forbidden',
      );
    });

    it('refuses a path that is not a user path with 403', async () => {
      expectProblem(
        await t.api('GET', '/api/contract_templates', { headers: { 'api-user-uri': '/api/contracts/1' } }),
        403,
        'forbidden',
      );
    });

    it('refuses an inactive user with 403', async () => {
      const user = await t.api('POST', '/api/users', {
        body: { username: 'gone', email: 'gone@office.test', active: false },
      });
      expectProblem(
        await t.api('GET', '/api/contract_templates', { headers: { 'api-user-uri': user.body.self } }),
        403,
        'forbidden',
      );
    });

    it('gives a customer user contracts and templates but not users', async () => {
      const user = await t.api('POST', '/api/users', { body: { username: 'plain', email: 'plain@office.test' } });
      const as = { 'api-user-uri': user.body.self };
      expect((await t.api('GET', '/api/contract_templates', { headers: as })).status).toBe(200);
      expectProblem(await t.api('GET', '/api/users', { headers: as }), 403, 'forbidden');
      expectProblem(
        await t.api('POST', '/api/users', { headers: as, body: { username: 'x', email: 'x@y.se' } }),
        403,
        'forbidden',
      );
    });
  });

  describe('bodies', () => {
    it('answers malformed JSON with 400 Malformed JSON and changes nothing', async () => {
      const before = await t.api('GET', '/api/contract_templates');
      const response = await t.api('POST', '/api/contract_templates', {
        raw: { data: '{"name": "x",', contentType: 'application/json' },
      });
      expectProblem(response, 400, 'malformed-json');
      expect(response.body.title).toBe('Malformed JSON');
      const after = await t.api('GET', '/api/contract_templates');
      expect(after.headers.get('pagination-items-total')).toBe(before.headers.get('pagination-items-total'));
    });

    it('takes form bodies, booleans included', async () => {
      const response = await t.api('POST', '/api/contract_templates', {
        form: { name: 'Form made', is_published: 'true', footer_type: 'NONE' },
      });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'Form made', is_published: true, footer_type: 'NONE' });
    });

    it('refuses other content types with 415', async () => {
      expectProblem(
        await t.api('POST', '/api/contract_templates', { raw: { data: 'name=x', contentType: 'text/plain' } }),
        415,
        'unsupported-media-type',
      );
    });

    it('refuses a JSON body that is not an object', async () => {
      expectProblem(await t.api('POST', '/api/contract_templates', { body: ['name'] }), 400, 'validation-failed');
      expectProblem(
        await t.api('POST', '/api/contract_templates', { raw: { data: '"name"', contentType: 'application/json' } }),
        400,
        'malformed-json',
      );
    });

    it('refuses unknown fields, wrong enum values, over-long strings and wrong types, one line each', async () => {
      const response = await t.api('POST', '/api/contract_templates', {
        body: { name: 'x'.repeat(1001), footer_type: 'FANCY', is_published: 'yes', colour: 'red', content: 7 },
      });
      expectProblem(response, 400, 'validation-failed');
      expect(response.body.validation_errors.sort()).toEqual(
        [
          'colour: unknown field',
          'content: must be a string',
          'footer_type: must be one of SIMPLE, NONE',
          'is_published: must be true or false',
          'name: must be at most 1000 characters',
        ].sort(),
      );
    });

    it('names a missing required field', async () => {
      const response = await t.api('POST', '/api/contract_templates', { body: {} });
      expect(response.body.validation_errors).toEqual(['name: is required']);
    });

    it('accepts content up to 100,000 characters and no more', async () => {
      expect(
        (await t.api('POST', '/api/contract_templates', { body: { name: 'big', content: 'å'.repeat(100_000) } }))
          .status,
      ).toBe(201);
      const over = await t.api('POST', '/api/contract_templates', {
        body: { name: 'big', content: 'a'.repeat(100_001) },
      });
      expect(over.body.validation_errors).toEqual(['content: must be at most 100000 characters']);
    });

    it('ignores read-only fields', async () => {
      const response = await t.api('POST', '/api/contract_templates', {
        body: {
          name: 'RO',
          self: '/api/contract_templates/999',
          created_time: '2000-01-01 00:00:00',
          created_by: '/api/users/77',
        },
      });
      expect(response.status).toBe(201);
      expect(response.body.self).not.toBe('/api/contract_templates/999');
      expect(response.body.created_by).toBe(t.adminPath);
    });

    it('refuses a JSON body over 1 MiB with 413', async () => {
      const response = await t.api('POST', '/api/contract_templates', {
        raw: { data: JSON.stringify({ name: 'x'.repeat(1_100_000) }), contentType: 'application/json' },
      });
      expectProblem(response, 413, 'payload-too-large');
    });
  });

  describe('routing', () => {
    it('answers an unknown path with 404', async () => {
      expectProblem(await t.api('GET', '/api/nothing'), 404, 'not-found');
    });

    it('answers a non-numeric or unknown id with 404', async () => {
      expectProblem(await t.api('GET', '/api/users/abc'), 404, 'not-found');
      expectProblem(await t.api('GET', '/api/users/0'), 404, 'not-found');
      expectProblem(await t.api('GET', '/api/users/99999'), 404, 'not-found');
      expectProblem(await t.api('GET', '/api/users/99999999999999999999'), 404, 'not-found');
      // Not valid percent-encoding: no resource is called that (Express's router made it a 500).
      expectProblem(await t.api('GET', '/api/users/%E0'), 404, 'not-found');
      expectProblem(await t.api('GET', '/api/contracts/1/parties/%'), 404, 'not-found');
    });

    it('answers a wrong method with 405 and Allow', async () => {
      const response = await t.api('PATCH', '/api/users/1');
      expectProblem(response, 405, 'method-not-allowed');
      expect(response.headers.get('allow')).toBe('GET, PUT, DELETE');
    });

    it("answers a wrong method on a nested path with 405 and that path's Allow", async () => {
      const response = await t.api('PATCH', '/api/contracts/1/parties');
      expectProblem(response, 405, 'method-not-allowed');
      expect(response.headers.get('allow')).toBe('GET, POST');
      expect((await t.api('PUT', '/api/settings/messaging/test')).headers.get('allow')).toBe('POST');
    });

    // Plain fetch: these paths and methods are not in the OpenAPI document that t.api checks against.
    const plain = (method: string, path: string) =>
      fetch(new URL(path, t.url), {
        method,
        headers: { authorization: `token ${t.adminKey}`, 'accept-api-version': '1' },
      });

    it('matches paths case-insensitively and with one trailing slash, as Express does', async () => {
      for (const path of ['/API/Users/1', '/api/users/1/', '/api/USERS/1/']) {
        const response = await plain('GET', path);
        expect(response.status, path).toBe(200);
        expect(((await response.json()) as { self: string }).self).toBe('/api/users/1');
      }
      expect((await plain('GET', '/api/contract_templates/')).status).toBe(200);
    });

    it('answers paths near a route but not one with 404', async () => {
      for (const path of [
        '/api/users/1//',
        '/api/users//1',
        '/api/users/1/extra',
        '/api/users/1/2/3/4/5',
        '/api',
        '/api/',
        '/api/contracts/1/parties/2/x',
      ]) {
        expectProblem(await t.api('GET', path), 404, 'not-found');
      }
    });

    it('answers HEAD like GET without a body, and OPTIONS with the methods of the path', async () => {
      const get = await t.api('GET', '/api/users/1');
      const head = await plain('HEAD', '/api/users/1');
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
      expect(head.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
      expect(get.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
      const options = await plain('OPTIONS', '/api/users/1');
      expect(options.status).toBe(200);
      expect(options.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    });
  });

  describe('timestamps', () => {
    it('are YYYY-MM-DD HH:MM:SS in Europe/Stockholm by default', async () => {
      const before = Date.now();
      const response = await t.api('POST', '/api/contract_templates', { body: { name: 'When' } });
      const stockholm = new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Europe/Stockholm',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
      expect(response.body.created_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      const expected = [before, Date.now()].map((ms) => stockholm.format(ms).replace('T', ' '));
      expect(expected).toContain(response.body.created_time);
    });
  });
});
