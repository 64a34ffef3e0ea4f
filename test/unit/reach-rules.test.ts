import { describe, expect, it } from 'vitest';
import { linkReachOf } from '../../shared/api/reach';
import { ConfigError, loadConfig } from '../../server/config/config';
import { isPublicPath } from '../../server/reach/public-paths';

const TOKEN = 'n85vOdtH6_wPeFRC2pVHQ-yjVS33PsMZGRgdo9aR3Ms';

describe('the party surface allow-list', () => {
  it('lets through what a party or verifier needs', () => {
    for (const path of [
      `/sign/${TOKEN}`,
      `/sign/${TOKEN}/`,
      `/sign/${TOKEN}/state`,
      `/sign/${TOKEN}/document.pdf`,
      `/sign/${TOKEN}/attachments/3`,
      `/sign/${TOKEN}/pages/1.webp`,
      `/sign/${TOKEN}/code/verify`,
      `/sign/${TOKEN}/delegate`,
      '/sign/assets/index-RRynn_qv.js',
      '/verify',
      '/verify/check',
      '/favicon.ico',
      '/healthz',
      '/.well-known/acme-challenge/LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0',
    ])
      expect(isPublicPath(path), path).toBe(true);
  });

  it('refuses every other path and every disguise', () => {
    for (const path of [
      '/',
      '/sign',
      '/sign/',
      '/SIGN/x',
      '/Verify',
      '/verify/',
      '/healthz/',
      '/api/users',
      '/API/users',
      '/admin',
      '/apidoc/v1/',
      '/api/openapi.json',
      '/sign/../api/users',
      '/sign/x/../../api',
      '/sign/./x',
      '/sign//x',
      '/sign/%2e%2e/api',
      '/sign/x%2fy',
      '/sign/x\\..\\api',
      '/sign/x;y',
      '/sign/x y',
      '/sign/.hidden',
      '/.well-known/acme-challenge/',
      '/.well-known/security.txt',
      '//sign/x',
    ])
      expect(isPublicPath(path), path).toBe(false);
  });
});

describe('who can open a link (linkReachOf)', () => {
  it('tells this PC, the LAN and the internet apart from the URL alone', () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:8750/sign/x', 'loopback'],
      ['http://localhost:8750', 'loopback'],
      ['http://[::1]:8750', 'loopback'],
      ['http://0.0.0.0:8750', 'loopback'],
      ['http://192.168.1.20:8750', 'private'],
      ['http://10.1.2.3', 'private'],
      ['http://172.16.0.1', 'private'],
      ['http://172.32.0.1', 'public'],
      ['http://100.100.1.1', 'private'],
      ['http://169.254.1.1', 'private'],
      ['http://[fd12:3456::1]', 'private'],
      ['http://[fe80::1]', 'private'],
      ['http://officepc:8750', 'private'],
      ['http://officepc.local', 'private'],
      ['http://nas.home.arpa', 'private'],
      ['https://sign.office.example', 'public'],
      ['https://203.0.113.7:8443', 'public'],
      ['https://[2001:db8::7]', 'public'],
      ['not a url', 'loopback'],
    ];
    for (const [url, reach] of cases) expect(linkReachOf(url), url).toBe(reach);
  });
});

describe('reach configuration', () => {
  const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: '/tmp/x', ...env });

  it('reads PUBLIC_PORT, PUBLIC_HOST and TRUSTED_PROXIES', () => {
    expect(load({})).toMatchObject({ publicPort: undefined, publicHost: '0.0.0.0', trustedProxies: [] });
    expect(
      load({ PUBLIC_PORT: '8443', PUBLIC_HOST: '192.168.1.20', TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8 ::1,fd00::/8' }),
    ).toMatchObject({
      publicPort: 8443,
      publicHost: '192.168.1.20',
      trustedProxies: ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8'],
    });
    expect(load({ TRUSTED_PROXIES: 'loopback' }).trustedProxies).toEqual(['loopback']);
  });

  it('refuses what would not work or would trust everyone', () => {
    const refused: Array<Record<string, string>> = [
      { TRUSTED_PROXIES: '0.0.0.0/0' },
      { TRUSTED_PROXIES: '::/0' },
      { TRUSTED_PROXIES: 'proxy.office.lan' },
      { TRUSTED_PROXIES: '10.0.0.0/33' },
      { TRUSTED_PROXIES: '10.0.0.0/255.0.0.0' },
      { TRUSTED_PROXIES: '*' },
      { PUBLIC_PORT: '8750' },
      { PUBLIC_PORT: '70000' },
      { PUBLIC_PORT: '8443', PUBLIC_TLS_CERT: '/etc/cert.pem' },
      { PUBLIC_TLS_CERT: '/etc/cert.pem', PUBLIC_TLS_KEY: '/etc/key.pem' },
    ];
    for (const env of refused) expect(() => load(env), JSON.stringify(env)).toThrow(ConfigError);
  });
});
