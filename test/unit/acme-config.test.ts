import { describe, expect, it } from 'vitest';
import { ConfigError, LETS_ENCRYPT_DIRECTORY_URL, loadConfig } from '../../server/config/config';
import { acmeDomainOf } from '../../server/context/acme-runtime';
import { renewalTimeOf } from '../../server/reach/acme-store';

const DAY = 86_400_000;

describe('the ACME configuration', () => {
  it("is off by default, and on with ACME_DOMAIN: Let's Encrypt, port 80", () => {
    expect(loadConfig({}).acme.domain).toBeUndefined();
    const config = loadConfig({ PUBLIC_PORT: '8443', ACME_DOMAIN: 'Sign.Office.Example' });
    expect(config.acme).toEqual({
      domain: 'sign.office.example',
      email: undefined,
      directoryUrl: LETS_ENCRYPT_DIRECTORY_URL,
      caFile: undefined,
      httpPort: 80,
    });
  });

  it('orders nothing while there is no party listener to serve the certificate on', () => {
    expect(acmeDomainOf(loadConfig({ ACME_DOMAIN: 'sign.office.example' }))).toBeUndefined();
    expect(acmeDomainOf(loadConfig({ ACME_DOMAIN: 'sign.office.example', PUBLIC_PORT: '8443' }))).toBe(
      'sign.office.example',
    );
  });

  it('refuses what cannot work, saying why', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [
        { PUBLIC_PORT: '8443', ACME_DOMAIN: 'sign.office.example', PUBLIC_TLS_CERT: 'c.pem', PUBLIC_TLS_KEY: 'k.pem' },
        /choose one source of the certificate/,
      ],
      [{ PUBLIC_PORT: '8443', ACME_DOMAIN: 'https://sign.office.example' }, /ACME_DOMAIN: must be a DNS name/],
      [{ PUBLIC_PORT: '8443', ACME_DOMAIN: '*.office.example' }, /ACME_DOMAIN: must be a DNS name/],
      [{ PUBLIC_PORT: '8443', ACME_DOMAIN: '192.0.2.7' }, /ACME_DOMAIN: must be a DNS name/],
      [{ ACME_DIRECTORY_URL: 'http://acme.example/dir' }, /ACME_DIRECTORY_URL/],
      [{ ACME_EMAIL: 'not an address' }, /ACME_EMAIL/],
      [{ ACME_HTTP_PORT: '70000' }, /ACME_HTTP_PORT/],
      [
        { PUBLIC_PORT: '8443', ACME_DOMAIN: 'sign.office.example', ACME_HTTP_PORT: '8443' },
        /ACME_HTTP_PORT: must differ/,
      ],
      [{ PORT: '8080', ACME_DOMAIN: 'sign.office.example', ACME_HTTP_PORT: '8080' }, /ACME_HTTP_PORT: must differ/],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });
});

describe('the renewal time', () => {
  it("is when a third of the lifetime is left: 30 days of Let's Encrypt's 90, 2 days of a 6-day certificate", () => {
    const issued = Date.parse('2026-11-26T12:00:00Z');
    expect(renewalTimeOf({ notBefore: issued, notAfter: issued + 90 * DAY })).toBe(issued + 60 * DAY);
    expect(renewalTimeOf({ notBefore: issued, notAfter: issued + 6 * DAY })).toBe(issued + 4 * DAY);
  });
});
