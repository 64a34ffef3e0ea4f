import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { expectProblem } from '../helpers/problems';
import { makeContract, signingClient, startSigningEnv, type SigningEnv } from '../helpers/signing';

/** The signing page's HTML for a link, and what it inlines. */
async function openPage(link: string, query = '') {
  const response = await fetch(`${link}${query}`);
  const html = await response.text();
  const json = /<script id="signing-bootstrap" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
  return {
    response,
    html,
    bootstrap: json ? (JSON.parse(json) as { state: any; returnUrl: string | null }) : undefined,
  };
}

const isWebp = (bytes: Buffer) =>
  bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP';

describe('delivering the signing page', () => {
  let env: SigningEnv;
  beforeAll(async () => {
    env = await startSigningEnv();
  });
  afterAll(() => env.close());

  it('inlines the state and preloads the first page; serves each page as a WebP cached for good, at the listed widths only', async () => {
    const contract = await makeContract(env.t, [{ name: 'Ada Lind', email: 'ada@example.test' }], {}, 3);
    expect((await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } })).status).toBe(200);
    const link = contract.parties[0]!.contract_url;
    const { response, html, bootstrap } = await openPage(link);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const state = bootstrap!.state;
    expect(state).toMatchObject({ stage: 'ready', contract: { pageImages: { widths: [540, 810, 1170, 1620, 2340] } } });
    expect(state.csrfToken).toEqual(expect.any(String));
    const base: string = state.contract.pageImages.base;
    expect(base).toMatch(/^\/sign\/[\w-]{43}\/pages\/[0-9a-f]{16}$/);
    expect(html).toContain(`<link rel="preload" as="image" fetchpriority="high" imagesrcset="${base}/1-540.webp 540w,`);
    // The state in the page is the state the JSON endpoint gives.
    const fromApi = (await signingClient(link).state()).body;
    expect({ ...fromApi, csrfToken: '' }).toEqual({ ...state, csrfToken: '' });

    const origin = new URL(link).origin;
    for (const page of [1, 3]) {
      const image = await fetch(`${origin}${base}/${page}-810.webp`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      expect(image.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(isWebp(Buffer.from(await image.arrayBuffer()))).toBe(true);
    }
    for (const wrong of [
      `${base}/4-810.webp`,
      `${base}/0-810.webp`,
      `${base}/1-800.webp`,
      `${base}/1-810.png`,
      `${base.replace(/[0-9a-f]{16}$/, '0000000000000000')}/1-810.webp`,
    ]) {
      const refused = await fetch(`${origin}${wrong}`);
      expect(refused.status, wrong).toBe(404);
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('shows no page before the one-time code, and none once the link has expired', async () => {
    const coded = await makeContract(env.t, [{ name: 'Bea Berg', email: 'bea@example.test' }], {
      require_auth: 'EMAIL_CODE',
    });
    await env.t.api('POST', `${coded.self}/send`, { body: { silent: true } });
    const page = await openPage(coded.parties[0]!.contract_url);
    expect(page.bootstrap!.state).toMatchObject({
      stage: 'needs-code',
      contract: { pageImages: null, pages: [] },
      fields: [],
    });
    expect(page.html).not.toContain('rel="preload" as="image"');
    const origin = new URL(coded.parties[0]!.contract_url).origin;
    const guessed = await fetch(
      `${origin}${new URL(coded.parties[0]!.contract_url).pathname}/pages/0000000000000000/1-810.webp`,
    );
    expect(guessed.status).toBe(403);

    const expireAt = Math.ceil((Date.now() + 4_000) / 1000) * 1000;
    const expiring = await makeContract(env.t, [{ name: 'Cai Ek', email: 'cai@example.test' }], {
      expire_time: formatTimestamp(expireAt, 'Europe/Stockholm'),
    });
    await env.t.api('POST', `${expiring.self}/send`, { body: { silent: true } });
    const link = expiring.parties[0]!.contract_url;
    const base: string = (await openPage(link)).bootstrap!.state.contract.pageImages.base;
    const imageUrl = `${new URL(link).origin}${base}/1-540.webp`;
    expect((await fetch(imageUrl)).status).toBe(200);
    await expect
      .poll(async () => (await signingClient(link).state()).body.stage, { timeout: 15_000, interval: 100 })
      .toBe('expired');
    const closed = await fetch(imageUrl);
    expect(closed.status).toBe(409);
    expect(((await closed.json()) as { detail: string }).detail).toMatch(/expired/);
  });

  it('sends the page script compressed by what the browser accepts, cached for good', async () => {
    const contract = await makeContract(env.t, [{ name: 'Dag Dahl', email: 'dag@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const { html } = await openPage(contract.parties[0]!.contract_url);
    // The page's first script is tiny; it fetches the app (React and the page) once the first page is shown.
    const first = /<script type="module" crossorigin src="([^"]+\.js)"/.exec(html)![1]!;
    const firstScript = await (await fetch(new URL(first, env.t.url))).text();
    expect(firstScript.length).toBeLessThan(4_000);
    const app = /start-app-[\w-]+\.js/.exec(firstScript)![0];
    const url = new URL(`/sign/assets/${app}`, env.t.url).toString();
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      // undici decodes what it receives: the raw size comes from Content-Length.
      const response = await fetch(url, { headers: { 'accept-encoding': accept } });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(response.headers.get('vary')).toContain('Accept-Encoding');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(Number(response.headers.get('content-length'))).toBeLessThan(plainBytes.length / 2.5);
      expect(Buffer.from(await response.arrayBuffer()).equals(plainBytes)).toBe(true);
    }
    // The whole first script a phone needs stays small.
    expect(
      Number((await fetch(url, { headers: { 'accept-encoding': 'br' } })).headers.get('content-length')),
    ).toBeLessThan(90_000);
  });

  it('answers every /sign request with nosniff and a Permissions-Policy, problems included; /favicon.ico is an empty answer', async () => {
    const contract = await makeContract(env.t, [{ name: 'Eva Alm', email: 'eva@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const link = contract.parties[0]!.contract_url;
    const answers = [
      await fetch(`${link}/state`),
      await fetch(`${link}/accept`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      await fetch(`${link}/signed.pdf`),
      await fetch(`${env.t.url}/sign/not-a-link`),
      await fetch(`${env.t.url}/sign/${'A'.repeat(43)}/state`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 403, 409, 404, 404]);
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('permissions-policy')).toMatch(/camera=\(\), microphone=\(\), geolocation=\(\)/);
    }
    const invalid = await (await fetch(`${env.t.url}/sign/not-a-link`)).text();
    expect(invalid).toMatch(/<link rel="stylesheet"[^>]+\/sign\/assets\/[^"]+\.css"/);
    expect(invalid).toContain('<main class="card narrow notice">');
    const favicon = await fetch(`${env.t.url}/favicon.ico`);
    expect(favicon.status).toBe(204);
  });

  it('lets only the origins the admin allowed frame the page, and takes a return URL only on them', async () => {
    const contract = await makeContract(env.t, [{ name: 'Frej Falk', email: 'frej@example.test' }]);
    await env.t.api('POST', `${contract.self}/send`, { body: { silent: true } });
    const link = contract.parties[0]!.contract_url;
    const before = await openPage(link, '?return_url=http%3A%2F%2Flocalhost%3A3000%2Fdone');
    expect(before.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(before.response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(before.bootstrap!.returnUrl).toBeNull();
    expect(before.bootstrap!.state.embedding).toEqual({
      frameOrigins: [],
      contract: contract.self,
      party: contract.parties[0]!.self,
    });

    const bad = await env.t.api('PUT', '/api/settings/general', {
      body: {
        signing_frame_origins: [
          'http://localhost:3000/path',
          'javascript:alert(1)',
          'localhost',
          'https://*.example.com',
          'https://app.*.example.com',
        ],
      },
    });
    await expectProblem(bad, 400, 'validation-failed');
    expect(bad.body.validation_errors).toHaveLength(5);
    expect(bad.body.validation_errors[3]).toMatch(/wildcard/);
    expect((await env.t.api('GET', '/api/settings/general')).body.signing_frame_origins).toEqual([]);

    const saved = await env.t.api('PUT', '/api/settings/general', {
      body: { signing_frame_origins: ['http://localhost:3000', 'https://app.example.com'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.signing_frame_origins).toEqual(['http://localhost:3000', 'https://app.example.com']);
    const after = await openPage(link, '?return_url=http%3A%2F%2Flocalhost%3A3000%2Fdone%3Fx%3D1');
    expect(after.response.headers.get('content-security-policy')).toContain(
      'frame-ancestors http://localhost:3000 https://app.example.com',
    );
    expect(after.response.headers.get('x-frame-options')).toBeNull();
    expect(after.bootstrap!.returnUrl).toBe('http://localhost:3000/done?x=1');
    expect(after.bootstrap!.state.embedding.frameOrigins).toEqual(['http://localhost:3000', 'https://app.example.com']);
    for (const stranger of [
      'https://evil.example/done',
      'javascript:alert(1)',
      'http://localhost:3001/',
      '//localhost:3000/x',
    ]) {
      expect(
        (await openPage(link, `?return_url=${encodeURIComponent(stranger)}`)).bootstrap!.returnUrl,
        stranger,
      ).toBeNull();
    }
    expect(
      (await env.t.api('PUT', '/api/settings/general', { body: { signing_frame_origins: [] } })).body
        .signing_frame_origins,
    ).toEqual([]);
    expect((await openPage(link)).response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
