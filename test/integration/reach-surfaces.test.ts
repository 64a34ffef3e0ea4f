import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http';
import {
  linkIn,
  makeContract,
  signingClient,
  startSigningEnv,
  waitForMailsTo,
  type SigningEnv,
} from '../helpers/signing';

/** Office paths, and disguises of them, that the party surface must not serve. */
const OFFICE_TARGETS: Array<[string, string]> = [
  ['GET', '/api/users'],
  ['GET', '/api/users/1'],
  ['GET', '/admin'],
  ['GET', '/admin/'],
  ['GET', '/admin/users'],
  ['GET', '/admin/sign-in-link/abc'],
  ['GET', '/apidoc/v1/'],
  ['GET', '/apidoc'],
  ['GET', '/api/openapi.json'],
  ['GET', '/api/setup'],
  ['POST', '/api/setup'],
  ['GET', '/api/session'],
  ['POST', '/api/session'],
  ['DELETE', '/api/session'],
  ['HEAD', '/api/users'],
  ['OPTIONS', '/api/users'],
  ['OPTIONS', '*'],
  ['GET', '/API/users'],
  ['GET', '/Api/Users'],
  ['GET', '//api/users'],
  ['GET', '/sign/../api/users'],
  ['GET', '/sign/x/../../api/users'],
  ['GET', '/verify/../api/users'],
  ['GET', '/sign/%2e%2e/api/users'],
  ['GET', '/sign/..%2fapi%2fusers'],
  ['GET', '/sign/%2E%2E%2Fapi%2Fusers'],
  ['GET', '/%61pi/users'],
  ['GET', '/sign\\..\\api\\users'],
  ['GET', '/sign/./x'],
  ['GET', 'http://127.0.0.1/api/users'],
  ['GET', '/'],
  ['GET', '/index.html'],
];

describe('the party surface (PUBLIC_PORT)', () => {
  let env: SigningEnv;
  let publicPort: number;
  beforeAll(async () => {
    env = await startSigningEnv({ publicPort: 0, publicHost: '127.0.0.1' });
    publicPort = Number(new URL(env.t.server.publicUrl!).port);
  });
  afterAll(() => env.close());

  it('hands parties links on the public listener, and a party signs through it', async () => {
    const { t, smtp } = env;
    expect(t.server.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(publicPort).not.toBe(t.server.port);
    const contract = await makeContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    // A forged Host on the office's request changes no link: links come from the configured base.
    const sent = await t.api('POST', `${contract.self}/send`, {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(sent.status).toBe(200);
    const [invitation] = await waitForMailsTo(smtp, 'asa@example.test', 1);
    const link = linkIn(invitation!);
    expect(link.startsWith(`${t.server.publicUrl}/sign/`)).toBe(true);
    const party = await t.api('GET', contract.parties[0]!.self);
    expect(party.body.contract_url).toBe(link);

    // A forged Host or X-Forwarded-Host on the party surface does not show up in the page either.
    const forged = await rawRequest(publicPort, 'GET', new URL(link).pathname, {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    });
    expect(forged.status).toBe(200);
    expect(forged.body).not.toContain('evil.example');
    expect(forged.headers['strict-transport-security']).toBeUndefined();

    const client = signingClient(link);
    const page = await client.open();
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('/sign/assets/');
    const asset = /\/sign\/assets\/[^"]+\.js/.exec(String(page.body))?.[0];
    expect((await fetch(`${t.server.publicUrl}${asset}`)).status).toBe(200);
    const state = await client.state();
    expect(state.body.stage).toBe('ready');
    expect((await client.document()).headers.get('content-type')).toBe('application/pdf');
    // The page images the signing page draws come through the party surface too.
    const images = state.body.contract.pageImages as { base: string; widths: number[] };
    const image = await fetch(`${t.server.publicUrl}${images.base}/1-${images.widths[0]}.webp`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const accepted = await client.accept({}, 'Åsa Öberg');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.stage).toBe('completed');
    await expect.poll(async () => (await t.api('GET', contract.self)).body.is_signed).toBe(true);

    // The office's own links stay on the office listener, where they work.
    const contracts = await t.api('GET', '/api/contracts?per_page=1');
    expect(contracts.body[0].pdf_preview_uri.startsWith(`${t.url}/api/`)).toBe(true);
    const settings = await t.api('GET', '/api/settings/general');
    expect(settings.body.effective_public_base_url).toBe(t.server.publicUrl);
  });

  it('serves the verify page, its check and the health answer there', async () => {
    const verify = await rawRequest(publicPort, 'GET', '/verify');
    expect(verify.status).toBe(200);
    expect(verify.headers['content-type']).toMatch(/^text\/html/);
    const check = await fetch(`${env.t.server.publicUrl}/verify/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF-1.4 not really',
    });
    // Not a PDF this appliance sealed: the check answers with its verdict.
    expect(check.status).toBe(200);
    expect(check.headers.get('content-type')).toMatch(/^application\/json/);
    const health = await fetch(`${env.t.server.publicUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', instance: expect.any(String) });
    expect((await rawRequest(publicPort, 'GET', '/.well-known/acme-challenge/unknown')).status).toBe(404);
  });

  it('answers 404 and sets no cookie for every office path, however it is spelled', async () => {
    for (const [method, target] of OFFICE_TARGETS) {
      const answer = await rawRequest(publicPort, method, target);
      expect(answer.status, `${method} ${target}`).toBe(404);
      expect(answer.headers['set-cookie'], `${method} ${target}`).toBeUndefined();
      expect(answer.body, `${method} ${target}`).not.toContain('admin@office.test');
    }
    // Even a full administrator's credentials open nothing there.
    const withKey = await rawRequest(publicPort, 'GET', '/api/users', {
      headers: { authorization: `token ${env.t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(withKey.status).toBe(404);
    const signIn = await fetch(`${env.t.server.publicUrl}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-api-version': '1' },
      body: JSON.stringify({ username: 'admin', password: 'correct horse' }),
    });
    expect(signIn.status).toBe(404);
    expect(signIn.headers.get('set-cookie')).toBeNull();
    // The same requests on the office listener reach the office: the checks above can fail.
    const office = await rawRequest(env.t.server.port, 'GET', '/api/users', {
      headers: { authorization: `token ${env.t.adminKey}`, 'accept-api-version': '1' },
    });
    expect(office.status).toBe(200);
    expect(office.body).toContain('admin@office.test');
    expect((await rawRequest(env.t.server.port, 'GET', '/admin/')).status).toBe(200);
  });
});
