import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { download, signedContract, waitForLtvStatus, waitForTimestampStatus } from '../helpers/evidence';
import { followReadme, sh, unzip } from '../helpers/evidence-package';
import { makeTempDir } from '../helpers/server';
import { startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTestPki, type TestPki } from '../helpers/test-pki';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

/** Long enough to seal a contract and extend it on a busy machine; the test then waits for them to expire. */
const LIFETIME_S = 100;

/**
 * Ten years on, in a test's minutes (the review of 2026-12-07, F6): every certificate of the
 * package (the seal's, the authority's, its intermediate and root) is made to expire within
 * LIFETIME_S by a real openssl PKI, and the README's steps run with the real openssl once they
 * all have, offline from the CA (its servers are shut).
 */
describe('the evidence package after every certificate in it has expired', () => {
  let pki: TestPki;
  let tsa: TsaServer;
  let env: SigningEnv;
  beforeAll(async () => {
    pki = await startTestPki({ lifetimeSeconds: LIFETIME_S, intermediateRevocation: 'crl+ocsp' });
    tsa = await startTsaServer({ authority: pki.authority });
    env = await startSigningEnv({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3, 0.5] });
    const seal = await env.t.api('POST', '/api/settings/signing_certificate', {
      body: { pkcs12: pki.sealPkcs12('seal secret').toString('base64'), passphrase: 'seal secret' },
    });
    expect(seal.status, JSON.stringify(seal.body)).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
    await pki?.close();
  });

  it('its README checks out, step by step, at each token’s own time, with the DSS, the OCSP and CRL answers and the archive timestamp walked', async () => {
    const { t } = env;
    const contract = await signedContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await waitForLtvStatus(t, contract.self, 'done');
    const zip = await download(t, `${contract.self}/evidence`);
    expect(zip.status).toBe(200);
    const folder = await unzip(zip.bytes, makeTempDir('signdesk-evidence-expired-'));

    // The CA's servers are gone; the certificates expire (the condition is openssl's own).
    await tsa.close();
    await pki.close();
    const certificates = [
      pki.rootFile,
      pki.intermediateFile,
      pki.authority.certFile,
      path.join(folder, 'seal-certificate.pem'),
    ];
    await vi.waitFor(
      async () => {
        for (const file of certificates)
          expect((await sh('openssl', ['x509', '-checkend', '0', '-noout', '-in', file])).status, file).toBe(1);
      },
      { timeout: (LIFETIME_S + 30) * 1000, interval: 1_000 },
    );
    const commands = await followReadme(folder, pki.rootFile);
    const names = fs.readdirSync(path.join(folder, 'dss')).sort();
    expect(names).toEqual(expect.arrayContaining(['certificates.pem', 'cert-1.pem', 'crl-1.der', 'ocsp-1.der']));
    for (const file of names.filter((name) => /^cert-\d+\.pem$/.test(name)))
      expect(
        (await sh('openssl', ['x509', '-checkend', '0', '-noout', '-in', path.join(folder, 'dss', file)])).status,
      ).toBe(1);

    fs.mkdirSync(path.resolve('test-results/evidence'), { recursive: true });
    fs.copyFileSync(path.join(folder, 'README.txt'), path.resolve('test-results/evidence/README-after-expiry.txt'));
    // Every token is checked at its own time; the DSS's CRLs and OCSP answers are walked.
    const verifies = commands.filter((command) => command.startsWith('openssl ts -verify'));
    expect(verifies.length).toBeGreaterThanOrEqual(3);
    for (const command of verifies) expect(command).toMatch(/ -attime \d+$/);
    expect(commands.filter((command) => command.startsWith('openssl verify -attime')).length).toBeGreaterThanOrEqual(2);
    expect(commands.filter((command) => command.startsWith('openssl ocsp -respin dss/')).length).toBeGreaterThanOrEqual(
      2,
    );
  }, 360_000);
});
