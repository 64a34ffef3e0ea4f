import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

describe('the admin UI files at /admin', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('moves /admin to /admin/ and keeps the query', async () => {
    const response = await fetch(`${t.url}/admin?signin=link-expired`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/admin/?signin=link-expired');
  });

  it('serves index.html for every UI path with a strict CSP and no caching', async () => {
    for (const path of ['/admin/', '/admin/contracts', '/admin/webhooks/12', '/admin/settings']) {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      const html = await response.text();
      expect(html).toContain('<div id="root"></div>');
      // No inline script: every script is a file of our own under /admin/assets.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).toMatch(/<script type="module" crossorigin src="\/admin\/assets\/index-[\w-]+\.js">/);
    }
  });

  it('serves the built assets for good and answers a missing one with 404', async () => {
    const html = await (await fetch(`${t.url}/admin/`)).text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1] ?? '';
    const asset = await fetch(`${t.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000/);
    expect(asset.headers.get('cache-control')).toMatch(/immutable/);
    const missing = await fetch(`${t.url}/admin/assets/nothing-here.js`);
    expect(missing.status).toBe(404);
  });

  it('loads no third-party resource: every asset reference is our own', async () => {
    const html = await (await fetch(`${t.url}/admin/`)).text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    for (const reference of references)
      expect(reference.startsWith('/admin/') || reference.startsWith('data:'), reference).toBe(true);
  });
});
