import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, signedContract, waitForLtvStatus, waitForTimestampStatus } from '../helpers/evidence';
import { followReadme, unzip } from '../helpers/evidence-package';
import { expectProblem } from '../helpers/problems';
import { makeTempDir } from '../helpers/server';
import { makeContract, startSigningEnv, type SigningEnv } from '../helpers/signing';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server';

describe('the evidence package', () => {
  let tsa: TsaServer;
  let env: SigningEnv;
  beforeAll(async () => {
    tsa = await startTsaServer();
    env = await startSigningEnv({ tsaUrl: tsa.url, tsaRetryScheduleS: [0.3] });
  });
  afterAll(async () => {
    await env?.close();
    await tsa?.close();
  });

  it('holds what an expert needs and its README checks out offline, command by command (signature timestamp)', async () => {
    const { t } = env;
    const contract = await signedContract(t, [{ name: 'Åsa Öberg', email: 'asa@example.test' }]);
    await waitForTimestampStatus(t, contract.self, 'signature');
    await waitForLtvStatus(t, contract.self, 'done');
    const zip = await download(t, `${contract.self}/evidence`);
    expect(zip.status).toBe(200);
    expect(zip.type).toBe('application/zip');
    const folder = await unzip(zip.bytes, makeTempDir('signdesk-evidence-'));
    const names = fs.readdirSync(folder).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'README.txt',
        'SHA256SUMS',
        'activity-chain',
        'activity-chain.sha256',
        'activity-log.json',
        'seal-certificate.pem',
        'seal-chain.pem',
        'seal-signature-value.bin',
        'seal-signature.p7s',
        'signature-timestamp.tst',
        'signed.pdf',
        'tsa-certificate.pem',
      ]),
    );
    // The PDF in the package is the one the API serves.
    expect(
      fs.readFileSync(path.join(folder, 'signed.pdf')).equals((await download(t, `${contract.self}/signed_pdf`)).bytes),
    ).toBe(true);
    const log = JSON.parse(fs.readFileSync(path.join(folder, 'activity-log.json'), 'utf8'));
    expect(log).toMatchObject({
      contract: contract.self,
      check: { is_intact: true },
      timestamp: { status: 'signature' },
      algorithm: { name: 'signdesk-activity-v1' },
    });
    expect(log.entries.length).toBe(fs.readdirSync(path.join(folder, 'activity-chain')).length);

    const commands = await followReadme(folder, tsa.caFile);
    // Kept for people to read, like the screenshots.
    fs.mkdirSync(path.resolve('test-results/evidence'), { recursive: true });
    fs.copyFileSync(
      path.join(folder, 'README.txt'),
      path.resolve('test-results/evidence/README-signature-timestamp.txt'),
    );
    expect(commands.some((command) => command.startsWith('openssl ts -verify -in signature-timestamp.tst'))).toBe(true);
    expect(commands.some((command) => command.startsWith('openssl cms -verify'))).toBe(true);
    expect(commands.some((command) => command.startsWith('pdfsig '))).toBe(true);

    // The steps fail on a tampered package: a changed byte in the PDF fails sha256sum and the seal.
    const pdf = path.join(folder, 'signed.pdf');
    const bytes = fs.readFileSync(pdf);
    const at = Math.floor(bytes.length / 3);
    bytes[at] = bytes[at]! ^ 0x01;
    fs.writeFileSync(pdf, bytes);
    await expect(followReadme(folder, tsa.caFile)).rejects.toThrow();
  }, 180_000);

  it('covers a document timestamp added after the authority came back', async () => {
    const { t } = env;
    tsa.down();
    const contract = await signedContract(t, [{ name: 'Bo Ek', email: 'bo@example.test' }]);
    tsa.up();
    await waitForTimestampStatus(t, contract.self, 'document');
    await waitForLtvStatus(t, contract.self, 'done');
    const folder = await unzip(
      (await download(t, `${contract.self}/evidence`)).bytes,
      makeTempDir('signdesk-evidence-'),
    );
    // The document timestamp, then the archive timestamp over the validation data.
    expect(fs.existsSync(path.join(folder, 'document-timestamp-1.tst'))).toBe(true);
    expect(fs.existsSync(path.join(folder, 'document-timestamp-2.tst'))).toBe(true);
    expect(fs.existsSync(path.join(folder, 'signature-timestamp.tst'))).toBe(false);
    const commands = await followReadme(folder, tsa.caFile);
    fs.copyFileSync(
      path.join(folder, 'README.txt'),
      path.resolve('test-results/evidence/README-document-timestamp.txt'),
    );
    for (const token of ['document-timestamp-1.tst', 'document-timestamp-2.tst'])
      expect(commands.some((command) => command.startsWith(`openssl ts -verify -in ${token}`))).toBe(true);
  }, 180_000);

  it('is refused before the contract is signed, and for unknown contracts', async () => {
    const { t } = env;
    const draft = await makeContract(t, [{ name: 'Cai Lund', email: 'cai@example.test' }]);
    expectProblem(await t.api('GET', `${draft.self}/evidence`), 409, 'contract-state');
    expectProblem(await t.api('GET', '/api/contracts/999999/evidence'), 404, 'not-found');
    expectProblem(await t.api('GET', `${draft.self}/evidence`, { key: null }), 401, 'unauthorized');
  }, 180_000);
});
