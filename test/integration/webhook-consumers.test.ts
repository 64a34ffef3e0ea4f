import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, linkOf, startTestServer, type TestServer } from '../helpers/server';

const FIELDS = [
  'self',
  'url',
  'contact_email',
  'public_key',
  'key_id',
  'events',
  'created_time',
  'disabled_time',
  'created_by',
];

describe('/api/webhooks', () => {
  let t: TestServer;
  let partnerKey: string;
  beforeAll(async () => {
    t = await startTestServer();
    partnerKey = (await cli(t.dataDir, ['token', 'create', '--name', 'partner', '--kind', 'partner'])).out.at(
      -1,
    ) as string;
  });
  afterAll(() => t.close());

  const count = async () => Number((await t.api('GET', '/api/webhooks')).headers.get('pagination-items-total'));

  it('registers a consumer with its own Ed25519 public key (PEM) and key id', async () => {
    const response = await t.api('POST', '/api/webhooks', {
      body: { url: 'https://crm.office.test/hooks', contact_email: 'dev@office.test' },
    });
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual([...FIELDS].sort());
    const id = Number(response.body.self.split('/').at(-1));
    expect(response.body).toMatchObject({
      self: `/api/webhooks/${id}`,
      url: 'https://crm.office.test/hooks',
      contact_email: 'dev@office.test',
      key_id: `ed25519-${id}`,
      disabled_time: null,
      created_by: t.adminPath,
    });
    expect(response.body.created_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const key = createPublicKey(response.body.public_key);
    expect(key.asymmetricKeyType).toBe('ed25519');
    // Every read returns the same key; another consumer gets another one.
    const read = await t.api('GET', response.body.self);
    expect(read.body).toEqual(response.body);
    const other = await t.api('POST', '/api/webhooks', { body: { url: 'http://127.0.0.1:9/x' } });
    expect(other.body.public_key).not.toBe(response.body.public_key);
    expect(other.body.key_id).not.toBe(response.body.key_id);
    expect(other.body.contact_email).toBeNull();
  });

  it('takes form bodies, loopback and LAN URLs, and ignores read-only fields', async () => {
    const response = await t.api('POST', '/api/webhooks', {
      form: {
        url: 'http://192.168.1.20:8080/signdesk?token=abc',
        contact_email: '',
        key_id: 'ed25519-999',
        public_key: 'x',
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.url).toBe('http://192.168.1.20:8080/signdesk?token=abc');
    expect(response.body.contact_email).toBeNull();
    expect(response.body.key_id).not.toBe('ed25519-999');
    expect(response.body.public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect((await t.api('POST', '/api/webhooks', { body: { url: 'http://localhost:3000/' } })).status).toBe(201);
  });

  it('refuses bad input with one line per field and creates nothing', async () => {
    const before = await count();
    const cases: Array<[unknown, string]> = [
      [{}, 'url: is required'],
      [{ url: 'ftp://files.office.test/in' }, 'url: must be an http or https URL'],
      [{ url: 'not a url' }, 'url: must be an absolute http or https URL'],
      [{ url: 'https://user:secret@crm.office.test/' }, 'url: must not contain a user name or password'],
      [{ url: `https://crm.office.test/${'a'.repeat(1_000)}` }, 'url: must be at most 1000 characters'],
      [{ url: 42 }, 'url: must be a string'],
      [{ url: 'https://crm.office.test/', contact_email: 'nobody' }, 'contact_email: must be a valid email'],
      [{ url: 'https://crm.office.test/', secret: 'x' }, 'secret: unknown field'],
    ];
    for (const [body, line] of cases) {
      const response = await t.api('POST', '/api/webhooks', { body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.validation_errors).toContain(line);
    }
    expect(
      (await t.api('POST', '/api/webhooks', { raw: { data: '{"url":', contentType: 'application/json' } })).body.title,
    ).toBe('Malformed JSON');
    expect(await count()).toBe(before);
  });

  it('lets a partner token do everything but create (403)', async () => {
    const before = await count();
    const response = await t.api('POST', '/api/webhooks', {
      key: partnerKey,
      body: { url: 'https://crm.office.test/' },
    });
    expect(response.status).toBe(403);
    expect(response.body.detail).toMatch(/partner token cannot create webhook consumers/);
    expect(await count()).toBe(before);
    expect((await t.api('GET', '/api/webhooks', { key: partnerKey })).status).toBe(200);
  });

  it('is for administrators only', async () => {
    const clerk = await t.api('POST', '/api/users', { body: { username: 'clerk', email: 'clerk@office.test' } });
    const asClerk = { headers: { 'api-user-uri': clerk.body.self } };
    expect((await t.api('GET', '/api/webhooks', asClerk)).status).toBe(403);
    expect(
      (await t.api('POST', '/api/webhooks', { ...asClerk, body: { url: 'https://crm.office.test/' } })).status,
    ).toBe(403);
  });

  it('changes only the fields sent, keeps the key pair, and deletes with 204', async () => {
    const created = (
      await t.api('POST', '/api/webhooks', { body: { url: 'https://a.office.test/', contact_email: 'a@office.test' } })
    ).body;
    const changed = await t.api('PUT', created.self, { body: { url: 'https://b.office.test/new' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ ...created, url: 'https://b.office.test/new' });
    const cleared = await t.api('PUT', created.self, { body: { contact_email: null } });
    expect(cleared.body.contact_email).toBeNull();
    expect((await t.api('PUT', created.self, { body: { url: 'mailto:x@y.z' } })).status).toBe(400);
    expect((await t.api('GET', created.self)).body.url).toBe('https://b.office.test/new');

    const removed = await t.api('DELETE', created.self);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await t.api('GET', created.self)).status).toBe(404);
    expect((await t.api('DELETE', created.self)).status).toBe(404);
    expect((await t.api('PUT', created.self, { body: { url: 'https://c.office.test/' } })).status).toBe(404);
    expect((await t.api('GET', `${created.self}/events`)).status).toBe(404);
    expect((await t.api('POST', `${created.self}/enable`)).status).toBe(404);
  });

  it('pages the list newest first with keyset links', async () => {
    const total = await count();
    const first = await t.api('GET', '/api/webhooks?per_page=2');
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('pagination-num-pages')).toBe(String(Math.ceil(total / 2)));
    const next = linkOf(first.headers, 'next') as string;
    const second = await t.api('GET', next);
    const ids = [...first.body, ...second.body].map((row: { self: string }) => Number(row.self.split('/').at(-1)));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('shows only the public key: SPKI of 32 raw bytes, and no other field', async () => {
    const created = (await t.api('POST', '/api/webhooks', { body: { url: 'https://k.office.test/' } })).body;
    const der = createPublicKey(created.public_key).export({ format: 'der', type: 'spki' });
    expect(der).toHaveLength(44);
    const list = await t.api('GET', '/api/webhooks?per_page=100');
    for (const consumer of list.body) expect(Object.keys(consumer).sort()).toEqual([...FIELDS].sort());
  });
});
